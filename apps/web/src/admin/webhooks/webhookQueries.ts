import { queryOptions } from '@tanstack/react-query';
import { graphqlRequest } from '../../api/graphqlRequest';
import { webhookDeliveriesQuery, webhooksQuery } from './webhookOperations';

export const webhooksOptions = queryOptions({
  queryKey: ['webhooks'],
  queryFn: async () => (await graphqlRequest(webhooksQuery)).webhooks,
});

export const webhookDeliveriesOptions = queryOptions({
  queryKey: ['webhooks', 'deliveries'],
  queryFn: async () => (await graphqlRequest(webhookDeliveriesQuery)).webhooks,
});
