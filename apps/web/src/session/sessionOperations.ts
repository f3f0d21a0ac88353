import { graphql } from '../generated';

export const meQuery = graphql(`
  query Me {
    me {
      kind
      name
      role
      roleSource
    }
  }
`);

export const authProvidersQuery = graphql(`
  query AuthProviders {
    authProviders {
      passwordLogin
      oidc {
        name
        signInUrl
        signOutUrl
      }
    }
  }
`);

export const loginMutation = graphql(`
  mutation Login($username: String!, $password: String!) {
    login(username: $username, password: $password) {
      kind
      name
      role
      roleSource
    }
  }
`);

export const logoutMutation = graphql(`
  mutation Logout {
    logout
  }
`);
