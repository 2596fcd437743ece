import { hash, verify } from '@node-rs/argon2';

type HashOptions = { memoryCost: number; timeCost: number; parallelism: number };

// argon2id (the library's default algorithm) with OWASP's minimum: 19 MiB, 2 passes.
const PRODUCTION_OPTIONS: HashOptions = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };
let options: HashOptions = PRODUCTION_OPTIONS;
let dummyHash: Promise<string> | undefined;

/**
 * For the test suites only (their setup file calls it): hashes made afterwards use the cheapest
 * argon2id parameters, so that creating and signing in thousands of test accounts takes no time.
 * Verification reads the parameters from each hash, so the application code is the same.
 */
export function useCheapPasswordHashingForTests(): void {
  options = { memoryCost: 64, timeCost: 1, parallelism: 1 };
  dummyHash = undefined;
}

/** Hashes a password with argon2id; the result embeds salt and parameters. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

/**
 * Checks a password against a stored hash. With no hash (unknown account, or no password set yet)
 * it still spends the same time on a dummy hash, so timing does not reveal which addresses exist.
 */
export async function verifyPassword(
  storedHash: string | null | undefined,
  password: string,
): Promise<boolean> {
  if (!storedHash) {
    dummyHash ??= hashPassword('dummy-password-for-timing');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(storedHash, password).catch(() => false);
}
