-- SEPA direct-debit mandates (docs/decisions/027, EPC SEPA Core Direct Debit rulebook): a subscriber may
-- sign several. `rum` is the unique mandate reference (at most 35 characters of the SEPA set, neither
-- starting nor ending with `/`, without `//`); `iban` is kept without spaces, upper case. `original_rum`,
-- `original_iban` and `amended_on` record a change of the reference or the account of a mandate already
-- used, which the next collection sends as an amendment (AmdmntInd, OrgnlMndtId, OrgnlDbtrAcct).
CREATE TABLE "mandates" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mandates_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"subscriber_id" integer NOT NULL,
	"rum" text NOT NULL,
	"iban" text NOT NULL,
	"bic" text,
	"signed_on" date NOT NULL,
	"type" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"last_collected_on" date,
	"revoked_on" date,
	"revoked_reason" text,
	"original_rum" text,
	"original_iban" text,
	"amended_on" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mandates_rum_key" UNIQUE("rum"),
	CONSTRAINT "mandates_rum_check" CHECK ("mandates"."rum" ~ '^[A-Za-z0-9/?:().,''+ -]{1,35}$' and "mandates"."rum" !~ '(^/|/$|//)'),
	CONSTRAINT "mandates_iban_check" CHECK ("mandates"."iban" ~ '^[A-Z0-9]{0,34}$'),
	CONSTRAINT "mandates_bic_check" CHECK ("mandates"."bic" is null or "mandates"."bic" ~ '^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$'),
	CONSTRAINT "mandates_type_check" CHECK ("mandates"."type" in ('recurring', 'oneOff')),
	CONSTRAINT "mandates_status_check" CHECK ("mandates"."status" in ('active', 'revoked', 'expired'))
);
--> statement-breakpoint
ALTER TABLE "mandates" ADD CONSTRAINT "mandates_subscriber_id_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."subscribers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mandates_subscriber_idx" ON "mandates" USING btree ("subscriber_id");--> statement-breakpoint
-- The daily expiry looks for the active mandates by the day of their last use.
CREATE INDEX "mandates_active_last_use_idx" ON "mandates" USING btree ((coalesce("last_collected_on", "signed_on"))) WHERE "mandates"."status" = 'active';--> statement-breakpoint
-- Every subscriber (not deleted) with a mandate reference gets it as a first mandate: recurring, active,
-- signed on the subscriber's start date (else the day they were added, and never after today), with the
-- IBAN cleaned (spaces and punctuation removed, upper case; '' when longer than an IBAN can be) and the
-- bank field as BIC when it holds one. The legacy record never checked the reference, so:
-- - accented letters are transliterated to ASCII (é -> e, ç -> c) and the ends trimmed; a reference
--   still outside the SEPA rule after that (other characters, over 35 characters, `/` at an end or
--   `//`) is skipped: the subscriber keeps it on the record and staff can type the mandate in;
-- - a reference that several subscribers share goes to the first of them (smallest id) only; the
--   others are skipped the same way.
-- The application has recorded no collection so far. So that the 36-month expiry does not end the
-- mandates of subscribers who do pay by direct debit, a subscriber whose payment method is a direct
-- debit gets their latest gift (not before the signature) as the day of the last collection.
INSERT INTO "mandates" ("subscriber_id", "rum", "iban", "bic", "signed_on", "type", "status", "last_collected_on")
SELECT DISTINCT ON (candidate.rum)
	candidate.subscriber_id,
	candidate.rum,
	candidate.iban,
	candidate.bic,
	candidate.signed_on,
	'recurring',
	'active',
	CASE WHEN candidate.direct_debit THEN (
		SELECT max(d.donation_date)
		FROM "donations" d
		WHERE d.subscriber_id = candidate.subscriber_id AND d.donation_date >= candidate.signed_on
	) END
FROM (
	SELECT
		s.id AS subscriber_id,
		btrim(translate(
			s.rum,
			'àáâãäåçèéêëìíîïñòóôõöùúûüýÿÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝŸ',
			'aaaaaaceeeeiiiinooooouuuuyyAAAAAACEEEEIIIINOOOOOUUUUYY'
		)) AS rum,
		CASE WHEN length(regexp_replace(s.iban, '[^A-Za-z0-9]', '', 'g')) <= 34
			THEN upper(regexp_replace(s.iban, '[^A-Za-z0-9]', '', 'g'))
			ELSE ''
		END AS iban,
		CASE WHEN upper(btrim(s.bank)) ~ '^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$' THEN upper(btrim(s.bank)) END AS bic,
		least(coalesce(s.start_date, s.added_on::date), current_date) AS signed_on,
		coalesce(pm.direct_debit, false) AS direct_debit
	FROM "subscribers" s
	LEFT JOIN "payment_methods" pm ON pm.id = s.payment_method_id
	WHERE btrim(s.rum) <> '' AND NOT s.hidden
) AS candidate
WHERE candidate.rum ~ '^[A-Za-z0-9/?:().,''+ -]{1,35}$' AND candidate.rum !~ '(^/|/$|//)'
ORDER BY candidate.rum, candidate.subscriber_id;
