import { useCheapPasswordHashingForTests } from '../src/lib/passwords.ts';

// Every test file: argon2id at its cheapest (tests create and sign in many accounts).
useCheapPasswordHashingForTests();
