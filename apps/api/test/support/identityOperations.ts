import { graphql } from '../generated';

// The identity operations the tests send (logins, users, API keys), typed from the API's SDL
// by codegen.

export const loginMutation = graphql(`
  mutation Login($username: String!, $password: String!) {
    login(username: $username, password: $password) {
      kind
      name
      role
    }
  }
`);

export const principalQuery = graphql(`
  query Principal {
    me {
      kind
      name
      role
    }
  }
`);

export const tableNamesQuery = graphql(`
  query TableNames {
    tables {
      name
    }
  }
`);

export const updateUserMutation = graphql(`
  mutation UpdateUser($username: String!, $role: Role, $password: String, $disabled: Boolean) {
    updateUser(username: $username, role: $role, password: $password, disabled: $disabled) {
      username
      disabled
    }
  }
`);

export const createApiKeyMutation = graphql(`
  mutation CreateApiKey($name: String!, $role: Role!) {
    createApiKey(name: $name, role: $role) {
      secret
      apiKey {
        name
        role
      }
    }
  }
`);

export const revokeApiKeyMutation = graphql(`
  mutation RevokeApiKey($name: String!) {
    revokeApiKey(name: $name) {
      name
      revokedAt
    }
  }
`);

export const createUserMutation = graphql(`
  mutation CreateUser($username: String!, $password: String!, $role: Role!) {
    createUser(username: $username, password: $password, role: $role) {
      username
      role
      disabled
    }
  }
`);
