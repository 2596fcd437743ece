import { Button } from '@mantine/core';
import { IconFileExport } from '@tabler/icons-react';
import { exportRefusedReason } from '../../../lib/api-error.ts';
import { notifyError } from '../../../lib/notify.ts';
import { useExportProducts } from '../api/export-products.ts';

/**
 * Export Products (part 1 §2 Products, §7: `GET /api/products/export` saved as
 * `products-export-{year}-{month}-{day}.csv`; §8: "exporting the products" on failure). Busy until
 * the file has arrived.
 */
export function ExportProductsButton() {
  const exportProducts = useExportProducts();
  const handleClick = () => {
    exportProducts.mutate(undefined, {
      onError: (error) => notifyError('exporting the products', exportRefusedReason(error)),
    });
  };
  return (
    <Button
      variant="default"
      leftSection={<IconFileExport size={16} aria-hidden />}
      loading={exportProducts.isPending}
      onClick={handleClick}
    >
      Export Products
    </Button>
  );
}
