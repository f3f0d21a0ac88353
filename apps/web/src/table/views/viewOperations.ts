import { queryOptions } from '@tanstack/react-query';
import { graphqlRequest } from '../../api/graphqlRequest';
import { graphql } from '../../generated';

export const gridLayoutQuery = graphql(`
  query GridLayout($table: String!) {
    gridLayout(table: $table) {
      column
      width
      hidden
      pinned
    }
  }
`);

export const saveGridLayoutMutation = graphql(`
  mutation SaveGridLayout($table: String!, $columns: [ColumnLayoutInput!]!) {
    saveGridLayout(table: $table, columns: $columns) {
      column
      width
      hidden
      pinned
    }
  }
`);

export const savedViewsQuery = graphql(`
  query SavedViews($table: String!) {
    savedViews(table: $table) {
      ...SavedViewFields
    }
  }
  fragment SavedViewFields on SavedView {
    id
    name
    owner
    shared
    sort {
      column
      direction
    }
    filter
    columns {
      column
      width
      hidden
      pinned
    }
  }
`);

export const savedViewQuery = graphql(`
  query SavedView($id: ID!) {
    savedView(id: $id) {
      ...SavedViewFields
    }
  }
`);

export const saveViewMutation = graphql(`
  mutation SaveView($view: SavedViewInput!) {
    saveView(view: $view) {
      ...SavedViewFields
    }
  }
`);

export const deleteSavedViewMutation = graphql(`
  mutation DeleteSavedView($id: ID!) {
    deleteSavedView(id: $id)
  }
`);

export const gridLayoutOptions = (table: string) =>
  queryOptions({
    queryKey: ['gridLayout', table],
    queryFn: async () => (await graphqlRequest(gridLayoutQuery, { table })).gridLayout,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });

export const savedViewsOptions = (table: string) =>
  queryOptions({
    queryKey: ['savedViews', table],
    queryFn: async () => (await graphqlRequest(savedViewsQuery, { table })).savedViews,
  });

export const savedViewOptions = (id: string) =>
  queryOptions({
    queryKey: ['savedView', id],
    queryFn: async () => (await graphqlRequest(savedViewQuery, { id })).savedView,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
