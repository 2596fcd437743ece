import { idParamsSchema } from '@back-office/contract/common';
import {
  duplicateCheckSchema,
  duplicateMatchListSchema,
  duplicatePairsQuerySchema,
  duplicatePairsSchema,
  mergeSubscribersSchema,
  subscriberMergeSchema,
} from '@back-office/contract/duplicates';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../http/access-control.ts';
import type { DuplicatesService } from './duplicates.service.ts';

/**
 * Duplicates and merge (contract `duplicates`; not in the spec): any signed-in user is warned of likely
 * duplicates while writing a subscriber; the scan, its pairs, merges and their undo are for
 * Administrators.
 */
export const duplicatesRoutes: FastifyPluginAsyncZod<{
  duplicatesService: DuplicatesService;
  /** True while a `duplicates.scan` job is queued or running. */
  scanning: () => Promise<boolean>;
}> = async (app, { duplicatesService: service, scanning }) => {
  const tags = ['subscribers'];

  app.post(
    '/api/subscribers/duplicates/check',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'Existing subscribers who look like the one being written (at most 10)',
        body: duplicateCheckSchema,
        response: { 200: duplicateMatchListSchema },
      },
    },
    (request) => service.check(request.body),
  );

  app.get(
    '/api/subscribers/duplicates',
    {
      config: { access: 'administrator' },
      schema: {
        tags,
        summary: "The likely duplicates of the register's last scan, best first",
        querystring: duplicatePairsQuerySchema,
        response: { 200: duplicatePairsSchema },
      },
    },
    async (request) => service.pairs(request.query, await scanning()),
  );

  app.post(
    '/api/subscribers/duplicates/scan',
    {
      config: { access: 'administrator' },
      schema: {
        tags,
        summary: 'Scan the whole register for likely duplicates, in the background',
        response: { 202: z.null() },
      },
    },
    async (request, reply) => {
      await service.startScan(currentUser(request));
      return reply.status(202).send(null);
    },
  );

  app.post(
    '/api/subscribers/merge',
    {
      config: { access: 'administrator' },
      schema: {
        tags,
        summary: 'Merge one subscriber into another: records, donations, sales, receipts, tags and history',
        body: mergeSubscribersSchema,
        response: { 200: subscriberMergeSchema },
      },
    },
    (request) => service.merge(request.body, currentUser(request)),
  );

  app.post(
    '/api/subscribers/merge/:id/undo',
    {
      config: { access: 'administrator' },
      schema: {
        tags,
        summary: 'Undo the merge of this subscriber into another (within 30 days)',
        params: idParamsSchema,
        response: { 200: subscriberMergeSchema },
      },
    },
    (request) => service.undo(request.params.id, currentUser(request)),
  );
};
