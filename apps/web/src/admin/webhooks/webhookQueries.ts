import { queryOptions } from '@tanstack/react-query';
import { graphqlRequest } from '../../api/graphqlRequest';
import { webhookDeliveriesQuery, webhookEventTypesQuery, webhooksQuery } from './webhookOperations';

export const webhooksOptions = queryOptions({
  queryKey: ['webhooks'],
  queryFn: async () => (await graphqlRequest(webhooksQuery)).webhooks,
});

export const webhookDeliveriesOptions = queryOptions({
  queryKey: ['webhooks', 'deliveries'],
  queryFn: async () => (await graphqlRequest(webhookDeliveriesQuery)).webhooks,
});

/** What an endpoint may ask for: the API's list, so a new event type needs no change here. */
export const webhookEventTypesOptions = queryOptions({
  queryKey: ['webhookEventTypes'],
  queryFn: async () => (await graphqlRequest(webhookEventTypesQuery)).webhookEventTypes,
  staleTime: Number.POSITIVE_INFINITY,
});
