/** Waits `ms` milliseconds; injected by tests that retry without waiting. */
export type Sleep = (ms: number) => Promise<void>;

/** A real wait. */
export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
