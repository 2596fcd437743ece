-- Attachments are base64 of PDFs and XLSX files, which are compressed already: PostgreSQL's attempt to
-- compress them again only costs CPU (about 0.5 ms per receipt email in the annual run). Stored out of
-- line, uncompressed. Runs on PostgreSQL 15 and on PGlite (18).
ALTER TABLE "outbox_messages" ALTER COLUMN "attachments" SET STORAGE EXTERNAL;
