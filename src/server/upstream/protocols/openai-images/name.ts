/** The protocol's name in the gateway's errors. */
export const PROTOCOL = 'OpenAI Images';
