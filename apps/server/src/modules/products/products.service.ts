import type { Product, SaveProductInput, UpdateProductInput } from '@back-office/contract/products';
import type { Database } from '../../db/client.ts';
import { createProductIdMismatchError, createProductNotFoundError } from './products.errors.ts';
import type { ProductsRepository } from './products.repository.ts';

/** The catalogue (part 1 §2 Products; issue 3 §1). */
export function createProductsService({ db, repository }: { db: Database; repository: ProductsRepository }) {
  const notFound = (id: number) => createProductNotFoundError(`No product has id ${id}.`);

  return {
    list: () => repository.list(db),

    /** @throws 404 */
    get: async (id: number): Promise<Product> => {
      const product = await repository.findById(db, id);
      if (!product) throw notFound(id);
      return product;
    },

    create: (input: SaveProductInput) => repository.insert(db, input),

    /** @throws 400 id mismatch; 404 */
    update: async (id: number, input: UpdateProductInput): Promise<Product> => {
      if (input.id !== undefined && input.id !== id) {
        throw createProductIdMismatchError(`The body's id ${input.id} differs from the path's id ${id}.`, [
          { path: 'id', message: 'The id must match the one in the path.' },
        ]);
      }
      const updated = await repository.update(db, id, input);
      if (!updated) throw notFound(id);
      return updated;
    },

    /** Soft delete, so past sales keep their lines (DESIGN.md). @throws 404 */
    remove: async (id: number) => {
      if (!(await repository.softDelete(db, id))) throw notFound(id);
    },
  };
}

export type ProductsService = ReturnType<typeof createProductsService>;
