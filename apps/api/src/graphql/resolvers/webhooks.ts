import {
  EVENT_TYPES,
  listWebhooks,
  readWebhookDeliveries,
  readWebhookDelivery,
  resendWebhookDelivery,
} from '@tablelock/outbox';
import { changeWebhook, registerWebhook, removeWebhook } from '../../webhooks/auditedWebhooks';
import type { MutationResolvers, QueryResolvers, WebhookResolvers } from '../generated/graphql';
import { callerOf } from './callerOf';
import { securityAudit } from './securityAudit';

export const webhooks: QueryResolvers['webhooks'] = (_parent, _args, context) =>
  listWebhooks(context.prisma);

export const webhookEventTypes: QueryResolvers['webhookEventTypes'] = () => [...EVENT_TYPES];

export const createWebhookResolver: MutationResolvers['createWebhook'] = (
  _parent,
  { webhook },
  context,
) =>
  registerWebhook(
    context.prisma,
    {
      url: webhook.url,
      eventTypes: webhook.eventTypes ?? [],
      tables: webhook.tables ?? [],
      withRows: webhook.withRows ?? false,
    },
    context.webhooks.allowedHosts,
    securityAudit(context, callerOf(context)),
  );

export const updateWebhookResolver: MutationResolvers['updateWebhook'] = (
  _parent,
  { id, change },
  context,
) =>
  changeWebhook(
    context.prisma,
    id,
    {
      ...(change.url == null ? {} : { url: change.url }),
      ...(change.eventTypes == null ? {} : { eventTypes: change.eventTypes }),
      ...(change.tables == null ? {} : { tables: change.tables }),
      ...(change.withRows == null ? {} : { withRows: change.withRows }),
      ...(change.enabled == null ? {} : { enabled: change.enabled }),
    },
    context.webhooks.allowedHosts,
    securityAudit(context, callerOf(context)),
  );

export const deleteWebhookResolver: MutationResolvers['deleteWebhook'] = async (
  _parent,
  { id },
  context,
) => {
  await removeWebhook(context.prisma, id, securityAudit(context, callerOf(context)));
  return true;
};

export const Webhook: WebhookResolvers = {
  deliveries: (webhook, { first }, context) =>
    readWebhookDeliveries(context.prisma, webhook.id, first ?? 50),
};

export const resendWebhookDeliveryResolver: MutationResolvers['resendWebhookDelivery'] = async (
  _parent,
  { id },
  context,
) =>
  readWebhookDelivery(
    context.prisma,
    await resendWebhookDelivery(context.prisma, id, context.webhooks),
  );
