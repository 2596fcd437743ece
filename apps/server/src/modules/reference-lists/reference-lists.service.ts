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
  createReferenceItemInUseError,
  createReferenceItemNotFoundError,
  createReferenceNameTakenError,
} from './reference-lists.errors.ts';
import type { ReferenceListsRepository } from './reference-lists.repository.ts';

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** What the audit trail keeps of an item: its fields without the id. */
const audited = ({ id: _id, ...fields }: ReferenceItem) => fields;
const auditedEntity = (definition: ReferenceListDefinition, item: ReferenceItem) => ({
  type: 'reference_list_item' as const,
  list: definition.key,
  id: item.id,
  label: item.name,
});

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

  const notFound = (definition: ReferenceListDefinition, id: number) =>
    createReferenceItemNotFoundError(`No ${definition.singular} has id ${id}.`);

  /** Fills what the wire may leave out: countries always carry order 100; direct debit keeps its value. */
  function complete(input: ReferenceItemInput, before?: ReferenceItem): Required<ReferenceItemInput> {
    return {
      id: input.id ?? 0,
      name: input.name,
      order: COUNTRY_ORDER,
      symbol: input.symbol ?? before?.symbol ?? '',
      directDebit: input.directDebit ?? before?.directDebit ?? false,
    };
  }

  async function guardUnique<T>(definition: ReferenceListDefinition, name: string, write: () => Promise<T>) {
    try {
      return await write();
    } catch (error) {
      if (postgresErrorCode(error) === UNIQUE_VIOLATION) throw nameTaken(definition, name);
      throw error;
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

    /** @throws 409 `reference_lists.name_taken` */
    create: (definition: ReferenceListDefinition, input: ReferenceItemInput, actor: AuditActor) =>
      guardUnique(definition, input.name, () =>
        db.transaction(async (tx) => {
          if (await repository.isNameTaken(tx, definition, input.name))
            throw nameTaken(definition, input.name);
          const created = await repository.insert(tx, definition, complete(input));
          await audit.record(tx, {
            actor,
            entity: auditedEntity(definition, created),
            action: 'created',
            after: audited(created),
          });
          return created;
        }),
      ),

    /** @throws 400 id mismatch; 404; 409 `reference_lists.name_taken` */
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
      return guardUnique(definition, input.name, () =>
        db.transaction(async (tx) => {
          const before = await getOrThrow(tx, definition, id);
          if (await repository.isNameTaken(tx, definition, input.name, id))
            throw nameTaken(definition, input.name);
          const updated = await repository.update(tx, definition, id, complete(input, before));
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
