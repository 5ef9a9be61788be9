import type { Clock } from "../lib/clock";
import { notFound } from "../lib/errors";
import type { ContextIn, Revision, AttachmentIn } from "./model";
import { priceCents } from "./money";
import type { Rates } from "./rates";
import { readAttachments, readSource, type ResourceIn } from "./source";
import { bad } from "./errors";
import type { OrderQuery, OrderRow, TranslateStore } from "./contract";
import { toDollars } from "./money";

export type TranslateInput = {
  source_language: string;
  target_languages: string[];
  text?: string;
  resource?: ResourceIn;
  context?: ContextIn;
  comment?: { text?: string; attachments?: AttachmentIn[] };
};

/** The customer side: pricing, placing, reading and deleting orders of one account. */
export function createOrderService({ store, rates, clock }: { store: TranslateStore; rates: Rates; clock: Clock }) {
  function quote(revision: Revision, input: TranslateInput) {
    const units = input.target_languages.map((target) => rates.require(input.source_language, target));
    const source = readSource(revision, input.text, input.resource);
    return { source, prices: units.map((u) => priceCents(source.volume, u)) };
  }

  /** Throws NOT_FOUND unless the order exists and belongs to the account. */
  async function own(accountId: number, id: number): Promise<OrderRow> {
    const order = await store.order(id);
    if (!order || order.accountId !== accountId) throw notFound(`order ${id} not found`);
    return order;
  }

  return {
    /** The calculate endpoint: volume and price per target, nothing stored. */
    calculate(revision: Revision, input: TranslateInput) {
      const { source, prices } = quote(revision, input);
      return input.target_languages.map((target, i) => ({
        source_language: input.source_language,
        target_language: target,
        volume: source.volume,
        price: toDollars(prices[i]!),
      }));
    },

    /**
     * Creates one QUEUE order per target and moves their prices from balance to reserved, all in
     * one transaction: without overdraft, a set that does not fit answers INSUFFICIENT_FUNDS and
     * creates nothing.
     */
    async place(accountId: number, revision: Revision, input: TranslateInput): Promise<OrderRow[]> {
      const { source, prices } = quote(revision, input);
      const images = readAttachments(input.comment?.attachments);
      const commentText = input.comment?.text ?? "";
      return store.transaction(async () => {
        const account = (await store.accountForUpdate(accountId))!;
        const total = prices.reduce((a, b) => a + b, 0);
        if (!account.overdraft && account.balance - total < 0) {
          throw bad("INSUFFICIENT_FUNDS", `the orders cost ${toDollars(total)} USD, the balance is ${toDollars(account.balance)} USD`, {
            required: toDollars(total),
            balance: toDollars(account.balance),
          });
        }
        const now = clock.now();
        const attachmentIds: number[] = [];
        for (const a of images) attachmentIds.push(await store.insertAttachment(a));
        const placed: OrderRow[] = [];
        for (const [i, target] of input.target_languages.entries()) {
          const order = await store.insertOrder({
            accountId,
            status: "QUEUE",
            sourceLanguage: input.source_language,
            targetLanguage: target,
            resourceType: source.type,
            resourceMetadata: source.metadata,
            sourceText: source.data,
            snippet: source.snippet,
            volume: source.volume,
            price: prices[i]!,
            tone: input.context?.tone ?? null,
            limit: input.context?.limit ?? null,
            category: input.context?.category ?? null,
            createdAt: now,
            statusAt: now,
          });
          await store.move(accountId, { entry: "reserve", balance: -order.price, reserved: order.price, orderId: order.id, actor: "customer", now });
          if (commentText !== "" || attachmentIds.length > 0) {
            await store.addComment(order.id, { role: "CUSTOMER", author: "customer", text: commentText, attachmentIds, now });
          }
          placed.push(order);
        }
        return placed;
      });
    },

    list: (accountId: number, q: Omit<OrderQuery, "accountId">) => store.orders({ ...q, accountId }),

    /** The order with its comments. Throws NOT_FOUND. */
    async get(accountId: number, id: number) {
      const order = await own(accountId, id);
      return { order, comments: await store.comments(id) };
    },

    /** Deletes a QUEUE order and gives its price back. Throws NOT_FOUND or WRONG_ORDER_STATUS. */
    remove(accountId: number, id: number): Promise<void> {
      return store.transaction(async () => {
        let order = await own(accountId, id);
        // Deleted only while still QUEUE: another instance may have had it accepted since the read.
        if (order.status !== "QUEUE" || !(await store.deleteOrder(id, ["QUEUE"]))) {
          order = order.status === "QUEUE" ? await own(accountId, id) : order;
          throw bad("WRONG_ORDER_STATUS", `order ${id} is ${order.status}; only QUEUE orders can be deleted`, { status: order.status });
        }
        await store.move(accountId, { entry: "release", balance: order.price, reserved: -order.price, orderId: id, actor: "customer", now: clock.now() });
      });
    },
  };
}

export type OrderService = ReturnType<typeof createOrderService>;
