import { MAX_ID } from '@back-office/contract/common';
import { annualReceiptEmailedSchema } from '@back-office/contract/donations';
import {
  cancelReceiptSchema,
  receiptChainCheckSchema,
  receiptNumberParamsSchema,
  receiptRegisterExportQuerySchema,
  receiptRegisterQuerySchema,
  receiptRegisterSchema,
  registeredReceiptSchema,
} from '@back-office/contract/receipts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../http/access-control.ts';
import { sendDownload } from '../../http/send-download.ts';
import { CSV_CONTENT_TYPE, csvStream } from '../../lib/csv.ts';
import { PDF_CONTENT_TYPE } from '../../lib/pdf/pdf-renderer.ts';
import { receiptCheckPage } from './receipt-check-page.ts';
import type { ReceiptsService } from './receipts.service.ts';

const donationParams = z.object({ donationId: z.coerce.number().int().positive().max(MAX_ID) });
const annualParams = z.object({
  subscriberId: z.coerce.number().int().positive().max(MAX_ID),
  year: z.coerce
    .number()
    .int()
    .min(1900, { message: 'The year must be between 1900 and 2999.' })
    .max(2999, { message: 'The year must be between 1900 and 2999.' }),
});
const queuedSchema = z.object({ queued: z.number().int() });

/** The public check's link: read by the handler, so that a bad one gets a page rather than a problem document. */
const checkParams = z.object({ number: z.string().max(20) });
const checkQuery = z.object({ h: z.string().max(100).optional() });
/** Checks of receipts one address may make per minute: enough for a donor, too few to try numbers. */
const CHECKS_PER_MINUTE = 30;

/** The columns of the register's CSV export. */
const REGISTER_COLUMNS = [
  { key: 'number', header: 'number' },
  { key: 'issuedAt', header: 'issuedAt' },
  { key: 'subscriberId', header: 'subscriberId' },
  { key: 'subscriberName', header: 'subscriberName' },
  { key: 'amount', header: 'amount', decimal: true },
  { key: 'currency', header: 'currency' },
  { key: 'status', header: 'status' },
  { key: 'cancelReason', header: 'cancelReason' },
  { key: 'replaces', header: 'replaces' },
  { key: 'replacedBy', header: 'replacedBy' },
  { key: 'hash', header: 'hash' },
] as const;

/**
 * Tax receipt endpoints (part 2 §7 Donations; docs/decisions/005) and the register (docs/decisions/023):
 * any signed-in user; cancelling and replacing a receipt, Administrators only.
 */
export const receiptsRoutes: FastifyPluginAsyncZod<{ receiptsService: ReceiptsService }> = async (
  app,
  { receiptsService: service },
) => {
  const tags = ['donations: receipts'];

  app.get(
    '/api/donations/receipt/:donationId',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'The tax receipt of one donation (issued on first download), as donation-{id}-receipt.pdf',
        params: donationParams,
        produces: [PDF_CONTENT_TYPE],
      },
    },
    async (request, reply) => {
      const file = await service.donationReceipt(request.params.donationId, currentUser(request));
      return sendDownload(reply, { filename: file.filename, contentType: PDF_CONTENT_TYPE, body: file.pdf });
    },
  );

  app.get(
    '/api/donations/receipt/:subscriberId/:year',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'A donor’s annual tax receipt, as {lastname}-donations-receipt-{year}.pdf',
        params: annualParams,
        produces: [PDF_CONTENT_TYPE],
      },
    },
    async (request, reply) => {
      const { subscriberId, year } = request.params;
      const file = await service.annualReceipt(subscriberId, year, currentUser(request));
      return sendDownload(reply, { filename: file.filename, contentType: PDF_CONTENT_TYPE, body: file.pdf });
    },
  );

  const registerTags = ['receipts: register'];

  app.get(
    '/api/receipts',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: registerTags,
        summary: 'The register of every receipt issued, by number (cancelled ones too)',
        querystring: receiptRegisterQuerySchema,
        response: { 200: receiptRegisterSchema },
      },
    },
    async (request) => {
      const { year, status, listfrom, listlength } = request.query;
      return service.register({ year, status }, { offset: listfrom - 1, limit: listlength });
    },
  );

  app.get(
    '/api/receipts/export',
    {
      config: { access: 'signed-in', export: true },
      schema: {
        tags: registerTags,
        summary: 'The register as CSV (receipts-register.csv)',
        querystring: receiptRegisterExportQuerySchema,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const { year, status, dialect } = request.query;
      return sendDownload(reply, {
        filename: 'receipts-register.csv',
        contentType: CSV_CONTENT_TYPE,
        body: csvStream(service.registerRows({ year, status }), REGISTER_COLUMNS, dialect),
      });
    },
  );

  app.get(
    '/verify/receipt/:number',
    {
      config: { access: 'public', rateLimit: { max: CHECKS_PER_MINUTE, timeWindow: '1 minute' } },
      schema: { hide: true, params: checkParams, querystring: checkQuery },
    },
    async (request, reply) => {
      const number = /^[1-9]\d{0,8}$/.test(request.params.number) ? Number(request.params.number) : 0;
      const check =
        number > 0
          ? await service.publicCheck(number, request.query.h ?? '')
          : { status: 'unknown' as const };
      void reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
      return reply.status(check.status === 'unknown' ? 404 : 200).send(receiptCheckPage(check));
    },
  );

  app.get(
    '/api/receipts/verify',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: registerTags,
        summary: 'Checks the hash chain and the numbering of the whole register',
        response: { 200: receiptChainCheckSchema },
      },
    },
    async () => service.verify(),
  );

  app.get(
    '/api/receipts/:number/pdf',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: registerTags,
        summary: 'A receipt as issued (printed ANNULÉ once cancelled), as receipt-{number}.pdf',
        params: receiptNumberParamsSchema,
        produces: [PDF_CONTENT_TYPE],
      },
    },
    async (request, reply) => {
      const file = await service.receiptPdf(request.params.number);
      return sendDownload(reply, { filename: file.filename, contentType: PDF_CONTENT_TYPE, body: file.pdf });
    },
  );

  app.post(
    '/api/receipts/:number/cancel',
    {
      config: { access: 'administrator' },
      schema: {
        tags: registerTags,
        summary: 'Cancels a receipt (never edited nor deleted); its gifts can be receipted again',
        params: receiptNumberParamsSchema,
        body: cancelReceiptSchema,
        response: { 200: registeredReceiptSchema },
      },
    },
    async (request) => service.cancel(request.params.number, request.body.reason, currentUser(request)),
  );

  app.post(
    '/api/receipts/:number/replace',
    {
      config: { access: 'administrator' },
      schema: {
        tags: registerTags,
        summary: 'Cancels a receipt and issues the next number for the same gifts, naming the one replaced',
        params: receiptNumberParamsSchema,
        body: cancelReceiptSchema,
        response: { 201: registeredReceiptSchema },
      },
    },
    async (request, reply) => {
      const replacement = await service.replace(
        request.params.number,
        request.body.reason,
        currentUser(request),
      );
      return reply.code(201).send(replacement);
    },
  );

  app.get(
    '/api/donations/email/:donationId',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'Email the receipt of one donation to the donor (PDF attached, through the outbox)',
        params: donationParams,
        response: { 200: queuedSchema },
      },
    },
    async (request) => {
      await service.emailDonationReceipt(request.params.donationId, currentUser(request));
      return { queued: 1 };
    },
  );

  app.get(
    '/api/donations/annualemail/:subscriberId/:year',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'Email the annual receipt to the donor (PDF attached, through the outbox)',
        params: annualParams,
        response: { 200: annualReceiptEmailedSchema },
      },
    },
    async (request) => {
      const result = await service.emailAnnualReceipt(
        request.params.subscriberId,
        request.params.year,
        currentUser(request),
      );
      return { queued: 1, ...result };
    },
  );
};
