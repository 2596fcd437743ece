import type {
  Product,
  SaveProductInput,
  StockAdjustmentInput,
  StockMovement,
  StockMovementList,
  StockMovementQuery,
  UpdateProductInput,
} from '@back-office/contract/products';
import type { Database } from '../../db/client.ts';
import { foldForSearch } from '../../lib/search-text.ts';
import type { AuditActor, AuditService } from '../audit/audit.service.ts';
import type { AuthUser } from '../auth/auth.service.ts';
import {
  createProductIdMismatchError,
  createProductNotFoundError,
  createStaleProductError,
  insufficientStock,
} from './products.errors.ts';
import type { ProductsRepository } from './products.repository.ts';
import type { StockMovementsRepository } from './stock-movements.repository.ts';

/** The reason of the movement that records the stock a product is created with. */
export const INITIAL_STOCK_REASON = 'Stock initial';

/** Folded names of the donation product (see {@link isDonationProduct}). */
const DONATION_PRODUCT_NAMES = new Set(['dons', 'don']);

/**
 * Whether a product named `name` is the donation product: "Dons" or "Don", whatever the case, accents
 * and surrounding spaces ("DONS", " dôn "). A sale line of it is a gift of the buyer, not goods: its
 * total is part of the sale's gift, recorded as a donation (part 2 §2.6 New sale; CGI art. 200).
 */
export function isDonationProduct(name: string): boolean {
  return DONATION_PRODUCT_NAMES.has(foldForSearch(name));
}

/** What the audit trail keeps of a product: its fields without the id and version. */
const audited = ({ id: _id, version: _version, ...fields }: Product) => fields;
const auditedEntity = (product: Product) => ({
  type: 'product' as const,
  id: product.id,
  label: product.name,
});

/**
 * The catalogue (part 1 §2 Products) and its stock ledger. Every change of a product is audited as
 * `actor`'s; every change of its stock is a movement (docs/security.md: stock).
 */
export function createProductsService({
  db,
  repository,
  stock,
  audit,
}: {
  db: Database;
  repository: ProductsRepository;
  stock: StockMovementsRepository;
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

    /** `POST /api/products`; a stock above 0 is recorded as a first `adjustment` ("Stock initial"). */
    create: (input: SaveProductInput, actor: AuditActor): Promise<Product> =>
      db.transaction(async (tx) => {
        let created = await repository.insert(tx, input);
        if (input.currentStock > 0) {
          await stock.move(tx, {
            productId: created.id,
            quantity: input.currentStock,
            kind: 'adjustment',
            reason: INITIAL_STOCK_REASON,
            user: { id: actor?.id ?? null, fullName: actor?.fullName ?? 'Système' },
          });
          created = { ...created, currentStock: input.currentStock };
        }
        await audit.record(tx, {
          actor,
          entity: auditedEntity(created),
          action: 'created',
          after: audited(created),
        });
        return created;
      }),

    /**
     * `PATCH /api/products/{id}`: the catalogue fields, never the stock. `input.version` must be the
     * stored one, so an edit made on a stale screen cannot undo someone else's.
     * @throws 400 id mismatch; 404; 409 `products.stale`
     */
    update: async (id: number, input: UpdateProductInput, actor: AuditActor): Promise<Product> => {
      if (input.id !== undefined && input.id !== id) {
        throw createProductIdMismatchError(`The body's id ${input.id} differs from the path's id ${id}.`, [
          { path: 'id', message: 'The id must match the one in the path.' },
        ]);
      }
      return db.transaction(async (tx) => {
        const before = await repository.findById(tx, id, { forUpdate: true });
        if (!before) throw notFound(id);
        if (before.version !== input.version) {
          throw createStaleProductError(
            'Someone else changed this product after you opened it. Reload it to see their changes, then make yours again.',
            [{ path: 'version', message: 'This product was changed since you opened it.' }],
          );
        }
        const updated = await repository.update(tx, id, before.version, input);
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

    /** `GET /api/products/{id}/movements`: one page of the stock ledger, newest first. @throws 404 */
    movements: async (id: number, query: StockMovementQuery): Promise<StockMovementList> => {
      if (!(await repository.findById(db, id))) throw notFound(id);
      return stock.list(db, id, query);
    },

    /**
     * `POST /api/products/{id}/adjustments`: moves the stock by a signed quantity, with a reason.
     * @throws 404; 409 `products.insufficient_stock` (field `quantity`) when it would go below 0
     */
    adjust: (id: number, input: StockAdjustmentInput, user: AuthUser): Promise<StockMovement> =>
      db.transaction(async (tx) => {
        const product = await repository.findById(tx, id);
        if (!product) throw notFound(id);
        const movement = await stock.move(tx, {
          productId: id,
          quantity: input.quantity,
          kind: 'adjustment',
          reason: input.reason,
          user,
        });
        if (movement) return movement;
        const now = await stock.findStock(tx, id);
        if (!now) throw notFound(id);
        throw insufficientStock(now, -input.quantity, 'quantity');
      }),

    /**
     * Soft delete, so past sales keep their lines (docs/spec/design.md §Contract decisions the spec
     * leaves open). @throws 404
     */
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
