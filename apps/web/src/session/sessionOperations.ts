import { graphql } from '../generated';

export const meQuery = graphql(`
  query Me {
    me {
      kind
      name
      role
    }
  }
`);

export const loginMutation = graphql(`
  mutation Login($username: String!, $password: String!) {
    login(username: $username, password: $password) {
      kind
      name
      role
    }
  }
`);

export const logoutMutation = graphql(`
  mutation Logout {
    logout
  }
`);
