import type { NewOrder } from "../../src/translate/contract";

/** A QUEUE order of account 1 at t=1000 costing 1.50, for the store's tests. */
export const newOrder = (over: Partial<NewOrder> = {}): NewOrder => ({
  accountId: 1,
  status: "QUEUE",
  sourceLanguage: "en",
  targetLanguage: "de",
  resourceType: "text/plain",
  resourceMetadata: null,
  sourceText: "Hello, world",
  snippet: "Hello",
  volume: 2,
  price: 150,
  tone: null,
  limit: null,
  category: null,
  createdAt: 1000,
  statusAt: 1000,
  ...over,
});
