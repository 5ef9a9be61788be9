import type { Clock } from "../lib/clock";
import { notFound } from "../lib/errors";
import type { AttachmentIn } from "./model";
import { readAttachments } from "./source";
import { bad } from "./errors";
import type { OrderQuery, OrderRow, OrderStatus, Role, TranslateStore } from "./contract";

/**
 * The work on orders: translators accept and complete them, administrators reopen them.
 * QUEUE -> PROGRESS -> DONE, and DONE -> REVISION -> PROGRESS -> DONE. Completing spends the
 * reserved price once; a revision costs nothing more.
 *
 * A translator sees every QUEUE and REVISION order and the orders it holds or completed; other
 * orders answer NOT_FOUND.
 */
export function createWorkService({ store, clock }: { store: TranslateStore; clock: Clock }) {
  const OPEN: OrderStatus[] = ["QUEUE", "REVISION"];
  const visible = (o: OrderRow, translator: string) => OPEN.includes(o.status) || o.translator === translator;

  /** The order, if `translator` (when given) may see it. Throws NOT_FOUND. */
  async function find(id: number, translator?: string): Promise<OrderRow> {
    const order = await store.order(id);
    if (!order || (translator !== undefined && !visible(order, translator))) throw notFound(`order ${id} not found`);
    return order;
  }

  const wrongStatus = (o: OrderRow, allowed: string) => bad("WRONG_ORDER_STATUS", `order ${o.id} is ${o.status}; this needs ${allowed}`, { status: o.status });

  return {
    find,
    comments: (id: number) => store.comments(id),

    /** Orders a translator may see, optionally of one status. */
    list: (translator: string, q: Omit<OrderQuery, "accountId" | "visibleTo" | "statuses"> & { status?: OrderStatus }): Promise<OrderRow[]> =>
      store.orders({ ...q, statuses: q.status ? [q.status] : undefined, visibleTo: translator }),

    /** QUEUE or REVISION -> PROGRESS. Throws NOT_FOUND or WRONG_ORDER_STATUS. */
    accept(translator: string, id: number, now = clock.now()): Promise<OrderRow> {
      return store.transaction(async () => {
        const order = await find(id, translator);
        const done = await store.transition(id, OPEN, { status: "PROGRESS", translator, acceptedAt: now, statusAt: now });
        if (!done) throw wrongStatus(order, "QUEUE or REVISION");
        return done;
      });
    },

    /** PROGRESS (held by this translator) -> DONE; spends the price the first time. */
    complete(translator: string, id: number, targetText: string, now = clock.now()): Promise<OrderRow> {
      return store.transaction(async () => {
        const order = await find(id, translator);
        if (order.status !== "PROGRESS" || order.translator !== translator) throw wrongStatus(order, "PROGRESS by you");
        // Only while still PROGRESS: a second complete of the same order must not spend twice.
        const done = await store.transition(id, ["PROGRESS"], { status: "DONE", targetText, completedAt: now, statusAt: now, paid: true });
        if (!done) throw wrongStatus({ ...order, status: "DONE" }, "PROGRESS by you");
        if (!order.paid) {
          await store.move(order.accountId, { entry: "spend", balance: 0, reserved: -order.price, orderId: id, actor: `translator:${translator}`, now });
        }
        return done;
      });
    },

    /** DONE -> REVISION, with an optional note for the translator. */
    reopen(admin: string, id: number, note: string | undefined): Promise<OrderRow> {
      return store.transaction(async () => {
        const order = await find(id);
        const now = clock.now();
        const done = await store.transition(id, ["DONE"], { status: "REVISION", statusAt: now });
        if (!done) throw wrongStatus(order, "DONE");
        if (note) await store.addComment(id, { role: "ADMIN", author: admin, text: note, attachmentIds: [], now });
        return done;
      });
    },

    /** Adds a comment with images to an order the author may see. Throws INVALID_ATTACHMENT. */
    async comment(id: number, by: { role: Role; author: string; translator?: string }, text: string, attachments: AttachmentIn[] | undefined) {
      const images = readAttachments(attachments);
      await store.transaction(async () => {
        await find(id, by.translator);
        const now = clock.now();
        const ids: number[] = [];
        for (const a of images) ids.push(await store.insertAttachment(a));
        await store.addComment(id, { role: by.role, author: by.author, text, attachmentIds: ids, now });
      });
      return store.comments(id);
    },
  };
}

export type WorkService = ReturnType<typeof createWorkService>;
