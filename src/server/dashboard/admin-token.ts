/**
 * The dashboard's admin token: taken from the configuration or generated at start-up, and compared in
 * constant time so that the answer's timing says nothing about how much of a guess was right.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** The shortest admin token an operator may configure (decision D26): guessable tokens are refused at start. */
export const MIN_ADMIN_TOKEN_LENGTH = 16;

/**
 * The configured token, or an error saying why it cannot be used.
 *
 * @example
 * checkAdminToken('hunter2'); // throws: … at least 16 characters …
 */
export function checkAdminToken(token: string): string {
  if (token.length < MIN_ADMIN_TOKEN_LENGTH) {
    throw new Error(
      `The admin token is ${token.length} characters long; it must have at least ${MIN_ADMIN_TOKEN_LENGTH} (it guards every key). ` +
        'Set a longer GATEWAY_ADMIN_TOKEN (or --admin-token), or none to have one generated at start.',
    );
  }
  return token;
}

/**
 * A fresh admin token: 32 URL-safe characters (192 random bits).
 *
 * @example
 *   generateAdminToken(); // 'Zr3k9LqVx2HcW8mN5pTb0yJfA7sD4eGu'
 */
export function generateAdminToken(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * Whether `candidate` is the admin token. Both sides are hashed first, so the comparison takes the same
 * time whatever the candidate's length or content.
 *
 * @example
 *   tokensMatch('s3cret', 's3cret'); // true
 *   tokensMatch('guess', 's3cret');  // false
 */
export function tokensMatch(candidate: string, token: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(candidate), digest(token));
}
