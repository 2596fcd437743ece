-- Finer statistics of the folded names searched anywhere (a sample of 300,000 rows and 1,000 histogram
-- bounds instead of 30,000 and 100): the planner's estimate of "sch" anywhere in a last name went from
-- 39,000–51,000 over successive ANALYZE runs to 38,500–39,100 for 38,600 real matches at a million
-- subscribers. A subscriber search decides from that estimate whether to collect and sort up to 20,000
-- matches (lib/search-count.ts); ANALYZE of the table takes longer (11 s at a million), planning does not.
ALTER TABLE "subscribers" ALTER COLUMN "search_last_name" SET STATISTICS 1000;
--> statement-breakpoint
ALTER TABLE "subscribers" ALTER COLUMN "search_first_name" SET STATISTICS 1000;
--> statement-breakpoint
ALTER TABLE "subscribers" ALTER COLUMN "search_association" SET STATISTICS 1000;
