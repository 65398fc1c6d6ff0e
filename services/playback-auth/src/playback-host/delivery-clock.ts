/** Injection token of the clock (epoch ms) the delivery metering uses; tests provide their own. */
export const DELIVERY_CLOCK = Symbol('DELIVERY_CLOCK');

export type DeliveryClock = () => number;
