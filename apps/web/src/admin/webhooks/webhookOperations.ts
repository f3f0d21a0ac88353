import { graphql } from '../../generated';

export const webhooksQuery = graphql(`
  query AdminWebhooks {
    webhooks {
      id
      url
      eventTypes
      tables
      withRows
      createdAt
      createdBy
      disabledAt
      disabledReason
    }
  }
`);

export const webhookEventTypesQuery = graphql(`
  query WebhookEventTypes {
    webhookEventTypes
  }
`);

export const webhookDeliveriesQuery = graphql(`
  query AdminWebhookDeliveries {
    webhooks {
      id
      deliveries(first: 50) {
        id
        messageId
        table
        type
        attempt
        at
        responseStatus
        latencyMs
        delivered
        error
      }
    }
  }
`);

export const createWebhookMutation = graphql(`
  mutation AdminCreateWebhook($webhook: WebhookInput!) {
    createWebhook(webhook: $webhook) {
      webhook {
        id
        url
      }
      secret
    }
  }
`);

export const updateWebhookMutation = graphql(`
  mutation AdminUpdateWebhook($id: ID!, $change: WebhookChange!) {
    updateWebhook(id: $id, change: $change) {
      id
      disabledAt
    }
  }
`);

export const deleteWebhookMutation = graphql(`
  mutation AdminDeleteWebhook($id: ID!) {
    deleteWebhook(id: $id)
  }
`);

export const resendWebhookDeliveryMutation = graphql(`
  mutation AdminResendWebhookDelivery($id: ID!) {
    resendWebhookDelivery(id: $id) {
      id
      delivered
      responseStatus
    }
  }
`);
