import {
  COUNTRY_ORDER,
  type ReferenceItem,
  type ReferenceItemInput,
} from '@back-office/contract/reference-lists';
import type { Database, Executor } from '../../db/client.ts';
import { FOREIGN_KEY_VIOLATION, postgresErrorCode, UNIQUE_VIOLATION } from '../../lib/postgres-errors.ts';
import type { AuditActor, AuditService } from '../audit/audit.service.ts';
import type { ReferenceListDefinition } from './reference-lists.definitions.ts';
import {
  createReferenceIdMismatchError,
  createReferenceIsoCodeTakenError,
  createReferenceItemInUseError,
  createReferenceItemNotFoundError,
  createReferenceNameTakenError,
} from './reference-lists.errors.ts';
import type { ReferenceListsRepository } from './reference-lists.repository.ts';

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** What the audit trail keeps of an item: its fields without the id, and without an ISO code not set. */
const audited = ({ id: _id, isoCode, ...fields }: ReferenceItem) =>
  isoCode ? { ...fields, isoCode } : fields;

const auditedEntity = (definition: ReferenceListDefinition, item: ReferenceItem) => ({
  type: 'reference_list_item' as const,
  list: definition.key,
  id: item.id,
  label: item.name,
});

/** The constraint a PostgreSQL error names (`countries_iso_code_unique`), through Drizzle's wrapper. */
function violatedConstraint(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 3; depth += 1) {
    const constraint = (current as { constraint?: unknown }).constraint;
    if (typeof constraint === 'string') return constraint;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Business rules shared by the six reference lists (part 1 §4, §5, §7). Every change is
 * audited as `actor`'s.
 */
export function createReferenceListsService({
  db,
  repository,
  audit,
}: {
  db: Database;
  repository: ReferenceListsRepository;
  audit: AuditService;
}) {
  const nameTaken = (definition: ReferenceListDefinition, name: string) =>
    createReferenceNameTakenError(`A ${definition.singular} named '${name}' already exists.`, [
      { path: 'name', message: `A ${definition.singular} with this name already exists.` },
    ]);

  const isoCodeTaken = (definition: ReferenceListDefinition, isoCode: string, holder?: string) =>
    createReferenceIsoCodeTakenError(
      holder
        ? `The ${definition.singular} '${holder}' already has the ISO code ${isoCode}.`
        : `Another ${definition.singular} already has the ISO code ${isoCode}.`,
      [{ path: 'isoCode', message: `Another ${definition.singular} already has this ISO code.` }],
    );

  const notFound = (definition: ReferenceListDefinition, id: number) =>
    createReferenceItemNotFoundError(`No ${definition.singular} has id ${id}.`);

  /**
   * Fills what the wire may leave out: countries always carry order 100; direct debit and the ISO code
   * keep their value (an ISO code sent empty or null is removed).
   */
  function complete(input: ReferenceItemInput, before?: ReferenceItem): Required<ReferenceItemInput> {
    return {
      id: input.id ?? 0,
      name: input.name,
      order: COUNTRY_ORDER,
      symbol: input.symbol ?? before?.symbol ?? '',
      directDebit: input.directDebit ?? before?.directDebit ?? false,
      isoCode: input.isoCode === undefined ? (before?.isoCode ?? null) : input.isoCode || null,
    };
  }

  /** Refuses a name or an ISO code another item of the list has (`exceptId`: the item being edited). */
  async function checkUnique(
    tx: Executor,
    definition: ReferenceListDefinition,
    item: Required<ReferenceItemInput>,
    exceptId?: number,
  ) {
    if (await repository.isNameTaken(tx, definition, item.name, exceptId))
      throw nameTaken(definition, item.name);
    if (!definition.extraFields.includes('isoCode') || !item.isoCode) return;
    const holder = await repository.holderOfIsoCode(tx, definition, item.isoCode, exceptId);
    if (holder !== undefined) throw isoCodeTaken(definition, item.isoCode, holder);
  }

  /** A write that lost a race to another with the same name or ISO code answers 409 all the same. */
  async function guardUnique<T>(
    definition: ReferenceListDefinition,
    input: ReferenceItemInput,
    write: () => Promise<T>,
  ) {
    try {
      return await write();
    } catch (error) {
      if (postgresErrorCode(error) !== UNIQUE_VIOLATION) throw error;
      if (input.isoCode && violatedConstraint(error)?.endsWith('_iso_code_unique'))
        throw isoCodeTaken(definition, input.isoCode);
      throw nameTaken(definition, input.name);
    }
  }

  async function getOrThrow(tx: Executor, definition: ReferenceListDefinition, id: number) {
    const item = await repository.findById(tx, definition, id);
    if (!item) throw notFound(definition, id);
    return item;
  }

  return {
    /** Items in the list's order (tags by name, case-insensitive; countries by order then name; others as added). */
    list: (definition: ReferenceListDefinition) => repository.list(db, definition),

    /** @throws 409 `reference_lists.name_taken` naming `name`, `reference_lists.iso_code_taken` naming `isoCode` */
    create: (definition: ReferenceListDefinition, input: ReferenceItemInput, actor: AuditActor) =>
      guardUnique(definition, input, () =>
        db.transaction(async (tx) => {
          const item = complete(input);
          await checkUnique(tx, definition, item);
          const created = await repository.insert(tx, definition, item);
          await audit.record(tx, {
            actor,
            entity: auditedEntity(definition, created),
            action: 'created',
            after: audited(created),
          });
          return created;
        }),
      ),

    /** @throws 400 id mismatch; 404; 409 `reference_lists.name_taken`, `reference_lists.iso_code_taken` */
    update: (
      definition: ReferenceListDefinition,
      id: number,
      input: ReferenceItemInput,
      actor: AuditActor,
    ) => {
      if (input.id !== undefined && input.id !== id) {
        throw createReferenceIdMismatchError(`The body's id ${input.id} differs from the path's id ${id}.`, [
          { path: 'id', message: 'The id must match the one in the path.' },
        ]);
      }
      return guardUnique(definition, input, () =>
        db.transaction(async (tx) => {
          const before = await getOrThrow(tx, definition, id);
          const item = complete(input, before);
          await checkUnique(tx, definition, item, id);
          const updated = await repository.update(tx, definition, id, item);
          if (!updated) throw notFound(definition, id);
          await audit.record(tx, {
            actor,
            entity: auditedEntity(definition, updated),
            action: 'updated',
            before: audited(before),
            after: audited(updated),
          });
          return updated;
        }),
      );
    },

    /**
     * Deletes an item no record uses.
     * @throws 404; 409 `reference_lists.in_use` saying how many records use it.
     */
    remove: async (definition: ReferenceListDefinition, id: number, actor: AuditActor) => {
      try {
        await db.transaction(async (tx) => {
          const item = await getOrThrow(tx, definition, id);
          const usages = await repository.countUsages(tx, definition, id);
          if (usages.length > 0) {
            const uses = usages.map((usage) => plural(usage.count, usage.noun)).join(' and ');
            throw createReferenceItemInUseError(
              `The ${definition.singular} '${item.name}' is used by ${uses} and cannot be deleted.`,
            );
          }
          await repository.delete(tx, definition, id);
          await audit.record(tx, {
            actor,
            entity: auditedEntity(definition, item),
            action: 'deleted',
            before: audited(item),
          });
        });
      } catch (error) {
        if (postgresErrorCode(error) === FOREIGN_KEY_VIOLATION) {
          throw createReferenceItemInUseError(
            `The ${definition.singular} is still in use and cannot be deleted.`,
          );
        }
        throw error;
      }
    },
  };
}

export type ReferenceListsService = ReturnType<typeof createReferenceListsService>;
