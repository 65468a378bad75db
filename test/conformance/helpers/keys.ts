/** The reference implementation's demo keys, one per tier. */
export const demoKeys = { starter: 'sk-demo-starter', economy: 'sk-demo-economy', pro: 'sk-demo-pro', ultimate: 'sk-demo-ultimate' } as const;
