/** The shop's orders. In memory for the example; a real shop keeps them in its database. */
export interface Order {
  id: string;
  amountMinor: number;
  status: 'awaiting_payment' | 'paid';
  sessionReference: string | null;
  /** How many times the goods were shipped: the example's proof that fulfilment happens once. */
  fulfilments: number;
}

export class OrderBook {
  private readonly orders = new Map<string, Order>();
  /** Event ids already handled: deliveries are at least once, so the same event can arrive again. */
  private readonly handledEvents = new Set<string>();

  open(id: string, amountMinor: number): Order {
    const order = this.orders.get(id) ?? { id, amountMinor, status: 'awaiting_payment', sessionReference: null, fulfilments: 0 };
    this.orders.set(id, order);
    return order;
  }

  get(id: string): Order | undefined {
    return this.orders.get(id);
  }

  attachSession(id: string, sessionReference: string): void {
    const order = this.orders.get(id);
    if (order) order.sessionReference = sessionReference;
  }

  /** Marks the event handled; false when it was already. */
  firstTimeSeen(eventId: string): boolean {
    if (this.handledEvents.has(eventId)) return false;
    this.handledEvents.add(eventId);
    return true;
  }

  /** Ships the order paid through this session, once. */
  fulfil(sessionReference: string): Order | undefined {
    const order = [...this.orders.values()].find((o) => o.sessionReference === sessionReference);
    if (!order || order.status === 'paid') return order;
    order.status = 'paid';
    order.fulfilments += 1;
    return order;
  }
}
