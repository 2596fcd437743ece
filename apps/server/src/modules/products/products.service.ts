import type { Product, SaveProductInput, UpdateProductInput } from '@back-office/contract/products';
import type { Database } from '../../db/client.ts';
import type { AuditActor, AuditService } from '../audit/audit.service.ts';
import { createProductIdMismatchError, createProductNotFoundError } from './products.errors.ts';
import type { ProductsRepository } from './products.repository.ts';

/** What the audit trail keeps of a product: its fields without the id. */
const audited = ({ id: _id, ...fields }: Product) => fields;
const auditedEntity = (product: Product) => ({
  type: 'product' as const,
  id: product.id,
  label: product.name,
});

/** The catalogue (part 1 §2 Products; issue 3 §1). Every change is audited as `actor`'s (issue 8 §8). */
export function createProductsService({
  db,
  repository,
  audit,
}: {
  db: Database;
  repository: ProductsRepository;
  audit: AuditService;
}) {
  const notFound = (id: number) => createProductNotFoundError(`No product has id ${id}.`);

  return {
    list: () => repository.list(db),

    /** @throws 404 */
    get: async (id: number): Promise<Product> => {
      const product = await repository.findById(db, id);
      if (!product) throw notFound(id);
      return product;
    },

    create: (input: SaveProductInput, actor: AuditActor): Promise<Product> =>
      db.transaction(async (tx) => {
        const created = await repository.insert(tx, input);
        await audit.record(tx, {
          actor,
          entity: auditedEntity(created),
          action: 'created',
          after: audited(created),
        });
        return created;
      }),

    /** @throws 400 id mismatch; 404 */
    update: async (id: number, input: UpdateProductInput, actor: AuditActor): Promise<Product> => {
      if (input.id !== undefined && input.id !== id) {
        throw createProductIdMismatchError(`The body's id ${input.id} differs from the path's id ${id}.`, [
          { path: 'id', message: 'The id must match the one in the path.' },
        ]);
      }
      return db.transaction(async (tx) => {
        const before = await repository.findById(tx, id, { forUpdate: true });
        if (!before) throw notFound(id);
        const updated = await repository.update(tx, id, input);
        if (!updated) throw notFound(id);
        await audit.record(tx, {
          actor,
          entity: auditedEntity(updated),
          action: 'updated',
          before: audited(before),
          after: audited(updated),
        });
        return updated;
      });
    },

    /** Soft delete, so past sales keep their lines (DESIGN.md). @throws 404 */
    remove: (id: number, actor: AuditActor) =>
      db.transaction(async (tx) => {
        const before = await repository.findById(tx, id, { forUpdate: true });
        if (!before || !(await repository.softDelete(tx, id))) throw notFound(id);
        await audit.record(tx, {
          actor,
          entity: auditedEntity(before),
          action: 'deleted',
          before: audited(before),
        });
      }),
  };
}

export type ProductsService = ReturnType<typeof createProductsService>;
