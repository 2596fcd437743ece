import { ActionIcon, Button, Group, Menu } from '@mantine/core';
import { IconChevronDown, IconFileExport } from '@tabler/icons-react';
import { CsvDialectMenuItems } from '../../../components/csv-dialect-menu-items.tsx';
import { exportRefusedReason } from '../../../lib/api-error.ts';
import { useCsvDialect } from '../../../lib/csv-dialect.ts';
import { notifyError } from '../../../lib/notify.ts';
import { useExportProducts } from '../api/export-products.ts';

/**
 * Export Products (part 1 §2 Products, §7: `GET /api/products/export` saved as
 * `products-export-{year}-{month}-{day}.csv`; §8: "exporting the products" on failure). Busy until
 * the file has arrived. The menu beside it picks the CSV format (part 2 §7 `?dialect=`), remembered
 * per user.
 */
export function ExportProductsButton() {
  const exportProducts = useExportProducts();
  const [dialect, setDialect] = useCsvDialect();
  const handleClick = () => {
    exportProducts.mutate(dialect, {
      onError: (error) => notifyError('exporting the products', exportRefusedReason(error)),
    });
  };
  return (
    <Group gap={0} wrap="nowrap">
      <Button
        variant="default"
        leftSection={<IconFileExport size={16} aria-hidden />}
        loading={exportProducts.isPending}
        onClick={handleClick}
        style={{ borderTopRightRadius: 0, borderBottomRightRadius: 0 }}
      >
        Export Products
      </Button>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon
            variant="default"
            size={36}
            aria-label="CSV format"
            style={{ borderTopLeftRadius: 0, borderBottomLeftRadius: 0, borderLeft: 0 }}
          >
            <IconChevronDown size={14} aria-hidden />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <CsvDialectMenuItems value={dialect} onChange={setDialect} />
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}
