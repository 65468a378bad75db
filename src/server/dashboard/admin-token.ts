/**
 * The dashboard's admin token: taken from the configuration or generated at start-up, and compared in
 * constant time so that the answer's timing says nothing about how much of a guess was right.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

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
