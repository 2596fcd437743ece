import type { Product } from '@back-office/contract/products';
import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { PageHeader } from '../../components/page-header.tsx';
import { ExportProductsButton } from '../../features/products/components/export-products-button.tsx';
import { ProductFormModal } from '../../features/products/components/product-form-modal.tsx';
import { ProductsList } from '../../features/products/components/products-list.tsx';
import { StockMovementsModal } from '../../features/products/components/stock-movements-modal.tsx';

/** The dialog keeps its product while it fades out, so its title does not flip on close. */
type ModalState = { opened: boolean; product: Product | null };

/**
 * /products (part 1 §2 Products): heading, Add New Product, Export Products, the list, its Add/Edit
 * dialog and the Stock dialog (movements and Adjust stock) of a product.
 */
export function ProductsRoute() {
  const [modal, setModal] = useState<ModalState>({ opened: false, product: null });
  const [stock, setStock] = useState<ModalState>({ opened: false, product: null });

  return (
    <>
      <PageHeader
        title="Products"
        actions={
          <>
            <Button
              leftSection={<IconPlus size={16} aria-hidden />}
              onClick={() => setModal({ opened: true, product: null })}
            >
              Add New Product
            </Button>
            <ExportProductsButton />
          </>
        }
      />
      <ProductsList
        onEdit={(product) => setModal({ opened: true, product })}
        onStock={(product) => setStock({ opened: true, product })}
      />
      <StockMovementsModal
        opened={stock.opened}
        product={stock.product}
        onClose={() => setStock((current) => ({ ...current, opened: false }))}
      />
      <ProductFormModal
        opened={modal.opened}
        product={modal.product}
        onClose={() => setModal((current) => ({ ...current, opened: false }))}
      />
    </>
  );
}
