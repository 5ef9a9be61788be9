import type { Clock } from "../lib/clock";
import { notFound } from "../lib/errors";
import type { AttachmentIn } from "./model";
import { readAttachments } from "./source";
import { bad } from "./errors";
import type { OrderQuery, OrderRow, OrderStatus, Role, TranslateStore } from "./store";

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

  function find(id: number, translator?: string): OrderRow {
    const order = store.order(id);
    if (!order || (translator !== undefined && !visible(order, translator))) throw notFound(`order ${id} not found`);
    return order;
  }

  const wrongStatus = (o: OrderRow, allowed: string) =>
    bad("WRONG_ORDER_STATUS", `order ${o.id} is ${o.status}; this needs ${allowed}`, { status: o.status });

  return {
    find,
    comments: (id: number) => store.comments(id),

    /** Orders a translator may see, optionally of one status. */
    list: (translator: string, q: Omit<OrderQuery, "accountId" | "visibleTo" | "statuses"> & { status?: OrderStatus }): OrderRow[] =>
      store.orders({ ...q, statuses: q.status ? [q.status] : undefined, visibleTo: translator }),

    /** QUEUE or REVISION -> PROGRESS. Throws NOT_FOUND or WRONG_ORDER_STATUS. */
    accept(translator: string, id: number, now = clock.now()): OrderRow {
      return store.transaction(() => {
        const order = find(id, translator);
        const done = store.transition(id, OPEN, { status: "PROGRESS", translator, acceptedAt: now, statusAt: now });
        if (!done) throw wrongStatus(order, "QUEUE or REVISION");
        return done;
      });
    },

    /** PROGRESS (held by this translator) -> DONE; spends the price the first time. */
    complete(translator: string, id: number, targetText: string, now = clock.now()): OrderRow {
      return store.transaction(() => {
        const order = find(id, translator);
        if (order.status !== "PROGRESS" || order.translator !== translator) throw wrongStatus(order, "PROGRESS by you");
        const done = store.transition(id, ["PROGRESS"], { status: "DONE", targetText, completedAt: now, statusAt: now, paid: true })!;
        if (!order.paid) {
          store.move(order.accountId, { entry: "spend", balance: 0, reserved: -order.price, orderId: id, actor: `translator:${translator}`, now });
        }
        return done;
      });
    },

    /** DONE -> REVISION, with an optional note for the translator. */
    reopen(admin: string, id: number, note: string | undefined): OrderRow {
      return store.transaction(() => {
        const order = find(id);
        const now = clock.now();
        const done = store.transition(id, ["DONE"], { status: "REVISION", statusAt: now });
        if (!done) throw wrongStatus(order, "DONE");
        if (note) store.addComment(id, { role: "ADMIN", author: admin, text: note, attachmentIds: [], now });
        return done;
      });
    },

    /** Adds a comment with images to an order the author may see. Throws INVALID_ATTACHMENT. */
    comment(id: number, by: { role: Role; author: string; translator?: string }, text: string, attachments: AttachmentIn[] | undefined) {
      const images = readAttachments(attachments);
      store.transaction(() => {
        find(id, by.translator);
        const now = clock.now();
        const ids = images.map((a) => store.insertAttachment(a));
        store.addComment(id, { role: by.role, author: by.author, text, attachmentIds: ids, now });
      });
      return store.comments(id);
    },
  };
}

export type WorkService = ReturnType<typeof createWorkService>;
