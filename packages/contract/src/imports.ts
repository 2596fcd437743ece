import { z } from 'zod';
import { MAX_ID } from './common.ts';

/**
 * Imports (not in the spec; moving in from another tool or a spreadsheet; Administrator only): a CSV or
 * XLSX file is uploaded, its columns mapped to the register's fields, checked row by row without
 * writing anything (the dry run), then committed all or nothing by a background job, and can be undone.
 */

/**
 * What a file brings in: subscribers; donations or sales of subscribers already in the register; or
 * products of the catalogue.
 */
export const importKindSchema = z.enum(['subscribers', 'donations', 'sales', 'products']);
export type ImportKind = z.infer<typeof importKindSchema>;

/** Largest file an import takes, in bytes (50 MB). */
export const IMPORT_MAX_FILE_BYTES = 50 * 1024 * 1024;
/** Most data rows an import takes (the header row not counted). */
export const IMPORT_MAX_ROWS = 1_000_000;
/** Sample values shown under each column while mapping. */
export const IMPORT_SAMPLE_COUNT = 3;

/**
 * A field a column can fill. `aliases` are the headers that map to it on their own, compared without
 * case, accents, spaces or punctuation (French and English names; the first is our own export's header).
 * `type` says how a cell is read: `text` as is, `boolean` from true/false, yes/no, oui/non, 1/0, x;
 * `number` with the import's decimal separator; `date` in the import's date format; `reference` by the
 * name of an item of a reference list; `tags` as names separated by `,` or `;`.
 */
export type ImportField = {
  field: string;
  label: string;
  type: 'text' | 'boolean' | 'number' | 'integer' | 'date' | 'reference' | 'tags';
  required?: boolean;
  aliases: readonly string[];
};

/** The subscriber fields an import fills (the columns of the subscriber export, part 2 §3). */
export const SUBSCRIBER_IMPORT_FIELDS: readonly ImportField[] = [
  { field: 'title', label: 'Title', type: 'text', aliases: ['Title', 'Civilité', 'Titre'] },
  {
    field: 'firstName',
    label: 'First name',
    type: 'text',
    required: true,
    aliases: ['First name', 'Prénom', 'Firstname', 'Given name'],
  },
  {
    field: 'lastName',
    label: 'Last name',
    type: 'text',
    required: true,
    aliases: ['Last name', 'Nom', 'Nom de famille', 'Lastname', 'Surname', 'Family name'],
  },
  { field: 'category', label: 'Category', type: 'reference', aliases: ['Category', 'Catégorie'] },
  { field: 'association', label: 'Association', type: 'text', aliases: ['Association', 'Organisation'] },
  {
    field: 'address1',
    label: 'Address 1',
    type: 'text',
    aliases: ['Address 1', 'Adresse 1', 'Adresse', 'Address', 'Rue', 'Street'],
  },
  { field: 'address2', label: 'Address 2', type: 'text', aliases: ['Address 2', 'Adresse 2'] },
  { field: 'address3', label: 'Address 3', type: 'text', aliases: ['Address 3', 'Adresse 3'] },
  { field: 'town', label: 'Town', type: 'text', aliases: ['Town', 'Ville', 'City', 'Localité', 'Commune'] },
  {
    field: 'postcode',
    label: 'Postcode',
    type: 'text',
    aliases: ['Postcode', 'Code postal', 'CP', 'NPA', 'Zip', 'Zip code', 'Postal code'],
  },
  { field: 'country', label: 'Country', type: 'reference', aliases: ['Country', 'Pays'] },
  {
    field: 'billingAddress',
    label: 'Billing address',
    type: 'text',
    aliases: ['Billing address', 'Adresse de facturation'],
  },
  {
    field: 'phone',
    label: 'Phone',
    type: 'text',
    aliases: ['Phone', 'Téléphone', 'Tél', 'Tel', 'Telephone'],
  },
  { field: 'mobile', label: 'Mobile', type: 'text', aliases: ['Mobile', 'Portable', 'Natel', 'Cell'] },
  { field: 'fax', label: 'Fax', type: 'text', aliases: ['Fax', 'Télécopie'] },
  {
    field: 'email',
    label: 'Email',
    type: 'text',
    aliases: ['Email', 'E-mail', 'Courriel', 'Mail', 'Adresse email'],
  },
  {
    field: 'onMailChimpList',
    label: 'On mailing list',
    type: 'boolean',
    aliases: ['On mailing list', 'Liste de diffusion', 'Newsletter'],
  },
  {
    field: 'newsletterEmail',
    label: 'Newsletter email',
    type: 'text',
    aliases: ['Newsletter email', 'Email newsletter', 'Courriel newsletter'],
  },
  {
    field: 'emailConsentDate',
    label: 'Email consent date',
    type: 'date',
    aliases: ['Email consent date', 'Date du consentement', 'Consentement le'],
  },
  {
    field: 'emailConsentSource',
    label: 'Email consent source',
    type: 'text',
    aliases: ['Email consent source', 'Source du consentement', 'Origine du consentement'],
  },
  {
    field: 'paymentMethod',
    label: 'Payment method',
    type: 'reference',
    aliases: ['Payment method', 'Mode de paiement', 'Moyen de paiement', 'Règlement'],
  },
  { field: 'bank', label: 'Bank', type: 'text', aliases: ['Bank', 'Banque'] },
  { field: 'iban', label: 'IBAN', type: 'text', aliases: ['IBAN'] },
  { field: 'currency', label: 'Currency', type: 'reference', aliases: ['Currency', 'Devise', 'Monnaie'] },
  { field: 'amount', label: 'Amount', type: 'number', aliases: ['Amount', 'Montant', 'Cotisation'] },
  {
    field: 'rum',
    label: 'RUM',
    type: 'text',
    aliases: ['RUM', 'Mandate', 'Mandat', 'Référence unique de mandat'],
  },
  {
    field: 'startDate',
    label: 'Start date',
    type: 'date',
    aliases: ['Start date', 'Date de début', 'Début'],
  },
  { field: 'endDate', label: 'End date', type: 'date', aliases: ['End date', 'Date de fin', 'Fin'] },
  {
    field: 'subscriptionType',
    label: 'Subscription type',
    type: 'reference',
    aliases: ['Subscription type', "Type d'abonnement", 'Abonnement'],
  },
  {
    field: 'copies',
    label: 'Copies',
    type: 'integer',
    aliases: ['Copies', 'Exemplaires', 'Nombre d’exemplaires'],
  },
  {
    field: 'recommendedBy',
    label: 'Recommended by',
    type: 'text',
    aliases: ['Recommended by', 'Recommandé par', 'Parrain'],
  },
  {
    field: 'stillOnMailingList',
    label: 'Still on mailing list',
    type: 'boolean',
    aliases: ['Still on mailing list', 'Toujours inscrit', 'Actif', 'Active'],
  },
  {
    field: 'inactiveReason',
    label: 'Reason for removal',
    type: 'text',
    aliases: ['Reason for removal', 'Motif de désinscription', 'Motif'],
  },
  { field: 'tags', label: 'Tags', type: 'tags', aliases: ['Tags', 'Étiquettes', 'Mots-clés'] },
  {
    field: 'notes',
    label: 'Notes',
    type: 'text',
    aliases: ['Notes', 'Remarques', 'Commentaires', 'Observations'],
  },
];

/**
 * The donation fields an import fills (the columns of the donation export, part 2 §3). The donor is
 * found by `subscriberId` when that column is mapped (ids of this register: never guessed from the
 * headers, since another database's ids name other people), else by email, else by first name, last
 * name and postcode; the gift is in the donor's currency.
 */
export const DONATION_IMPORT_FIELDS: readonly ImportField[] = [
  { field: 'subscriberId', label: 'Subscriber id (of this register)', type: 'integer', aliases: [] },
  { field: 'email', label: 'Email', type: 'text', aliases: ['Email', 'E-mail', 'Courriel', 'Mail'] },
  { field: 'firstName', label: 'First name', type: 'text', aliases: ['First name', 'Prénom'] },
  { field: 'lastName', label: 'Last name', type: 'text', aliases: ['Last name', 'Nom', 'Nom de famille'] },
  { field: 'postcode', label: 'Postcode', type: 'text', aliases: ['Postcode', 'Code postal', 'CP', 'NPA'] },
  {
    field: 'amount',
    label: 'Amount',
    type: 'number',
    required: true,
    aliases: ['Amount', 'Montant', 'Don', 'Montant du don'],
  },
  {
    field: 'donationDate',
    label: 'Date',
    type: 'date',
    required: true,
    aliases: ['Date', 'Date du don', 'Donation date', 'Date de versement'],
  },
  { field: 'currency', label: 'Currency', type: 'reference', aliases: ['Currency', 'Devise', 'Monnaie'] },
  {
    field: 'notes',
    label: 'Notes',
    type: 'text',
    aliases: ['Notes', 'Remarques', 'Commentaire', 'Observations'],
  },
];

/**
 * The sale fields an import fills: one row per line item, the sale's own fields repeated on each of its
 * lines (the columns of the detailed sales export, part 2 §7). Rows with the same `ref` that follow one
 * another are one sale; without a `ref` column each row is a sale of one line. The buyer is found as a
 * donation's donor, or by full name ("First Last") and postcode; the product by this catalogue's id
 * (mapped by hand only) or by name. `unitPrice` defaults to the catalogue's price in the sale's currency;
 * `total` and `lineTotal`, when mapped, must equal what the sale's figures give (part 2 §9).
 */
export const SALE_IMPORT_FIELDS: readonly ImportField[] = [
  {
    field: 'ref',
    label: 'Sale number',
    type: 'integer',
    aliases: [
      'ref',
      'Sale number',
      'Numéro de vente',
      'N° de facture',
      'Numéro de facture',
      'Invoice number',
    ],
  },
  {
    field: 'date',
    label: 'Date',
    type: 'date',
    required: true,
    aliases: ['date', 'Date de vente', 'Sale date', 'Date de facture', 'Invoice date'],
  },
  { field: 'subscriberId', label: 'Subscriber id (of this register)', type: 'integer', aliases: [] },
  { field: 'email', label: 'Email', type: 'text', aliases: ['email', 'E-mail', 'Courriel', 'Mail'] },
  { field: 'firstName', label: 'First name', type: 'text', aliases: ['First name', 'Prénom'] },
  { field: 'lastName', label: 'Last name', type: 'text', aliases: ['Last name', 'Nom', 'Nom de famille'] },
  {
    field: 'fullName',
    label: 'Buyer name',
    type: 'text',
    aliases: ['name', 'Full name', 'Nom complet', 'Client', 'Acheteur', 'Buyer'],
  },
  { field: 'association', label: 'Association', type: 'text', aliases: ['association', 'Organisation'] },
  { field: 'address1', label: 'Address 1', type: 'text', aliases: ['address1', 'Adresse 1', 'Adresse'] },
  { field: 'address2', label: 'Address 2', type: 'text', aliases: ['address2', 'Adresse 2'] },
  { field: 'address3', label: 'Address 3', type: 'text', aliases: ['address3', 'Adresse 3'] },
  { field: 'town', label: 'Town', type: 'text', aliases: ['town', 'Ville', 'Localité'] },
  { field: 'postcode', label: 'Postcode', type: 'text', aliases: ['postcode', 'Code postal', 'CP', 'NPA'] },
  { field: 'country', label: 'Country', type: 'text', aliases: ['country', 'Pays'] },
  { field: 'currency', label: 'Currency', type: 'reference', aliases: ['currency', 'Devise', 'Monnaie'] },
  {
    field: 'discountPercentage',
    label: 'Discount (%)',
    type: 'number',
    aliases: ['discountPercentage', 'Remise', 'Remise (%)', 'Discount'],
  },
  {
    field: 'deliveryCharge',
    label: 'Delivery charge',
    type: 'number',
    aliases: ['deliveryCharge', 'Frais de port', 'Port', 'Delivery'],
  },
  { field: 'donation', label: 'Donation', type: 'number', aliases: ['donation', 'Don'] },
  { field: 'total', label: 'Total', type: 'number', aliases: ['total', 'Total TTC', 'Montant total'] },
  {
    field: 'orderNumber',
    label: 'Order number',
    type: 'text',
    aliases: ['orderNumber', 'Order number', 'N° de commande', 'Bon de commande'],
  },
  { field: 'notes', label: 'Notes', type: 'text', aliases: ['notes', 'Remarques', 'Commentaire'] },
  { field: 'productId', label: 'Product id (of this catalogue)', type: 'integer', aliases: [] },
  {
    field: 'product',
    label: 'Product',
    type: 'reference',
    aliases: ['product', 'Produit', 'Article', 'Désignation'],
  },
  {
    field: 'quantity',
    label: 'Quantity',
    type: 'integer',
    required: true,
    aliases: ['quantity', 'Quantité', 'Qté', 'Qty'],
  },
  {
    field: 'unitPrice',
    label: 'Unit price',
    type: 'number',
    aliases: ['unitPrice', 'Prix unitaire', 'PU', 'Unit price'],
  },
  {
    field: 'lineTotal',
    label: 'Line total',
    type: 'number',
    aliases: ['lineTotal', 'Total ligne', 'Montant ligne', 'Line total'],
  },
];

/**
 * The product fields an import fills (part 1 §3 Product; the labels of the product form). A product of
 * the catalogue with the same name (without case or accents) is a duplicate; merging it writes the
 * row's filled-in cells over it, and a stock that differs is set by an `import` stock movement.
 */
export const PRODUCT_IMPORT_FIELDS: readonly ImportField[] = [
  {
    field: 'name',
    label: 'Name',
    type: 'text',
    required: true,
    aliases: ['Name', 'Nom', 'Produit', 'Product', 'Article', 'Désignation', 'Libellé'],
  },
  {
    field: 'euroPrice',
    label: 'Price (Euro)',
    type: 'number',
    required: true,
    aliases: ['Price (Euro)', 'euroPrice', 'Prix (€)', 'Prix euro', 'Prix EUR', 'Prix'],
  },
  {
    field: 'swissPrice',
    label: 'Price (Swiss)',
    type: 'number',
    required: true,
    aliases: ['Price (Swiss)', 'swissPrice', 'Prix (CHF)', 'Prix CHF', 'Prix suisse'],
  },
  { field: 'active', label: 'Active', type: 'boolean', aliases: ['Active', 'Actif', 'En vente'] },
  {
    field: 'currentStock',
    label: 'Stock',
    type: 'integer',
    aliases: ['Stock', 'currentStock', 'Current stock', 'Stock actuel', 'Quantité en stock'],
  },
  {
    field: 'minStockAlert',
    label: 'Min Stock',
    type: 'integer',
    aliases: ['Min Stock', 'minStockAlert', 'Stock minimum', 'Seuil d’alerte', 'Alerte stock'],
  },
];

/** The fields of each kind of import. */
export const IMPORT_FIELDS: Record<ImportKind, readonly ImportField[]> = {
  subscribers: SUBSCRIBER_IMPORT_FIELDS,
  donations: DONATION_IMPORT_FIELDS,
  sales: SALE_IMPORT_FIELDS,
  products: PRODUCT_IMPORT_FIELDS,
};

/** How the dates of a file are written. XLSX date cells are read as dates whatever this says. */
export const importDateFormatSchema = z.enum(['DD/MM/YYYY', 'YYYY-MM-DD', 'MM/DD/YYYY']);
export type ImportDateFormat = z.infer<typeof importDateFormatSchema>;

/**
 * How cells are read: `dateFormat`; `decimalSeparator` of amounts (`,` as in France and Switzerland's
 * French texts, or `.`); `createMissingReferences` creates the reference items (countries, categories,
 * tags…) a file names and the lists lack, else such a cell is an error; `defaultCurrencyId` is the
 * currency of rows whose currency cell is empty or unmapped (null: such rows are errors).
 */
export const importOptionsSchema = z.object({
  dateFormat: importDateFormatSchema,
  decimalSeparator: z.enum([',', '.']),
  createMissingReferences: z.boolean(),
  defaultCurrencyId: z.number().int().positive().max(MAX_ID).nullable(),
});
export type ImportOptions = z.infer<typeof importOptionsSchema>;

/** Field name → index of the column that fills it (0-based), or null for none. */
export const importMappingSchema = z.record(z.string(), z.number().int().min(0).max(10_000).nullable());
export type ImportMapping = z.infer<typeof importMappingSchema>;

/** `PUT /api/imports/{id}/mapping` body. Unknown fields are 400 naming them. */
export const saveImportMappingSchema = z.object({
  mapping: importMappingSchema,
  options: importOptionsSchema,
});
export type SaveImportMapping = z.infer<typeof saveImportMappingSchema>;

/** A column of the file: its 0-based `index`, its header and its first non-empty values. */
export const importColumnSchema = z.object({
  index: z.number().int().min(0),
  header: z.string(),
  samples: z.array(z.string()),
});
export type ImportColumn = z.infer<typeof importColumnSchema>;

/**
 * Days an import keeps the rows of its file (personal data: GDPR art. 5(1)(e)), counted from its
 * commit or undo, else from its upload; until then a commit can be undone.
 */
export const IMPORT_KEPT_DAYS = 30;

/**
 * `uploaded`: read, waiting for a mapping and a dry run; `checked`: dry run done for the current
 * mapping; `queued`/`running`: being committed by its job; `committed`: done; `failed`: the commit
 * failed and wrote nothing (`failure` says why); `undone`: what it wrote was removed; `expired`: its
 * rows were deleted {@link IMPORT_KEPT_DAYS} days on (what it wrote stays; it can no longer be
 * committed or undone).
 */
export const importStatusSchema = z.enum([
  'uploaded',
  'checked',
  'queued',
  'running',
  'committed',
  'failed',
  'undone',
  'expired',
]);
export type ImportStatus = z.infer<typeof importStatusSchema>;

/** One cell's problem: `field` is the mapped field's name, `row` the 1-based data row of the file. */
export const importRowErrorSchema = z.object({
  row: z.number().int().min(1),
  field: z.string(),
  message: z.string(),
});
export type ImportRowError = z.infer<typeof importRowErrorSchema>;

/**
 * An import as `POST /api/imports`, `GET /api/imports/{id}` and the other calls answer it. Date-times
 * are ISO 8601. `dryRun` is the last dry run's totals (null before one, or after the mapping changed).
 * `processed` of `total` rows while committing; `created` and `merged` count records (subscribers,
 * donations, sales or products), `skipped` rows;
 * `errors` lists the rows that stopped a commit.
 */
export const importSchema = z.object({
  id: z.number().int(),
  kind: importKindSchema,
  fileName: z.string(),
  status: importStatusSchema,
  columns: z.array(importColumnSchema),
  rowCount: z.number().int(),
  mapping: importMappingSchema,
  options: importOptionsSchema,
  dryRun: z
    .object({ valid: z.number().int(), invalid: z.number().int(), duplicates: z.number().int() })
    .nullable(),
  processed: z.number().int(),
  total: z.number().int(),
  created: z.number().int(),
  merged: z.number().int(),
  skipped: z.number().int(),
  errors: z.array(importRowErrorSchema),
  failure: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
  committedAt: z.string().nullable(),
  undoneAt: z.string().nullable(),
});
export type Import = z.infer<typeof importSchema>;

/** `GET /api/imports`: the imports, newest first (at most 50), without their columns. */
export const importListSchema = z.array(importSchema.omit({ columns: true }));
export type ImportSummary = z.infer<typeof importListSchema>[number];

/** `POST /api/imports` multipart fields besides `file`. */
export const startImportFieldsSchema = z.object({ kind: importKindSchema });

/** `POST /api/imports/{id}/dry-run` query: the page of rows, optionally only those of one status. */
export const importDryRunQuerySchema = z.object({
  status: z.enum(['', 'valid', 'invalid', 'duplicate']).default(''),
  /** 1-based position of the first row. */
  listfrom: z.coerce.number().int().min(1).max(IMPORT_MAX_ROWS).default(1),
  listlength: z.coerce.number().int().min(1).max(500).default(50),
});
export type ImportDryRunQuery = z.infer<typeof importDryRunQuerySchema>;

export const importRowStatusSchema = z.enum(['valid', 'invalid', 'duplicate']);
export type ImportRowStatus = z.infer<typeof importRowStatusSchema>;

/**
 * One checked row: `row` is the 1-based data row, `values` the cells of the mapped fields as read,
 * `matchId` the record a duplicate matches (the subscriber; for a donation import the donor, for a sale
 * import the sale, for a product import the product; null for a row that repeats an earlier row of the
 * file), `matchReasons` why (`email`, `iban`, `name+postcode`, `file`; a donation import: `same donor,
 * date and amount`; a sale import: `same sale number`; a product import: `same name`).
 */
export const importDryRunRowSchema = z.object({
  row: z.number().int(),
  status: importRowStatusSchema,
  values: z.record(z.string(), z.string()),
  errors: z.array(z.object({ field: z.string(), message: z.string() })),
  matchId: z.number().int().nullable(),
  matchReasons: z.array(z.string()),
});
export type ImportDryRunRow = z.infer<typeof importDryRunRowSchema>;

/** `POST /api/imports/{id}/dry-run` answer: the totals of the whole file and one page of rows. */
export const importDryRunSchema = z.object({
  valid: z.number().int(),
  invalid: z.number().int(),
  duplicates: z.number().int(),
  /** Rows of the requested status (all rows when none). */
  count: z.number().int(),
  rows: z.array(importDryRunRowSchema),
});
export type ImportDryRun = z.infer<typeof importDryRunSchema>;

/**
 * `POST /api/imports/{id}/commit` body: what to do with some rows. A valid row is created unless told
 * `skip`; a duplicate is skipped unless told `create` or `merge` (merge writes the row's non-empty cells
 * over the matched subscriber and adds its tags); invalid rows are always skipped.
 */
export const commitImportSchema = z.object({
  decisions: z
    .array(
      z.object({
        row: z.number().int().min(1).max(IMPORT_MAX_ROWS),
        action: z.enum(['create', 'merge', 'skip']),
      }),
    )
    .max(IMPORT_MAX_ROWS)
    .default([]),
});
export type CommitImport = z.infer<typeof commitImportSchema>;
