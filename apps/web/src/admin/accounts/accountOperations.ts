import { graphql } from '../../generated';

export const createUserMutation = graphql(`
  mutation CreateUser($username: String!, $password: String!, $role: Role!) {
    createUser(username: $username, password: $password, role: $role) {
      id
      username
    }
  }
`);

export const updateUserMutation = graphql(`
  mutation UpdateUser($username: String!, $role: Role, $password: String, $disabled: Boolean) {
    updateUser(username: $username, role: $role, password: $password, disabled: $disabled) {
      id
      role
      disabled
    }
  }
`);

export const apiKeysQuery = graphql(`
  query AdminApiKeys {
    apiKeys {
      id
      name
      role
      createdBy
      createdAt
      lastUsedAt
      revokedAt
    }
  }
`);

export const createApiKeyMutation = graphql(`
  mutation CreateApiKey($name: String!, $role: Role!) {
    createApiKey(name: $name, role: $role) {
      apiKey {
        id
        name
      }
      secret
    }
  }
`);

export const revokeApiKeyMutation = graphql(`
  mutation RevokeApiKey($name: String!) {
    revokeApiKey(name: $name) {
      id
      revokedAt
    }
  }
`);
