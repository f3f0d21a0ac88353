-- Demo master data: a small retail company. Deterministic (no random()), so every fresh start
-- and every test database holds the same rows. Runs with search_path set to the master schema.

CREATE TABLE currencies (
  code        char(3) PRIMARY KEY,
  name        text NOT NULL,
  minor_units smallint NOT NULL CHECK (minor_units BETWEEN 0 AND 4),
  active      boolean NOT NULL DEFAULT true
);

CREATE TABLE regions (
  id        integer PRIMARY KEY,
  code      text NOT NULL UNIQUE,
  name      text NOT NULL,
  parent_id integer REFERENCES regions (id)
);

CREATE TABLE categories (
  id         integer PRIMARY KEY,
  name       text NOT NULL,
  parent_id  integer REFERENCES categories (id),
  sort_order integer NOT NULL DEFAULT 0
);

CREATE TABLE suppliers (
  id             integer PRIMARY KEY,
  name           text NOT NULL,
  region_id      integer NOT NULL REFERENCES regions (id),
  currency_code  char(3) NOT NULL REFERENCES currencies (code),
  email          text,
  rating         numeric(2, 1) CHECK (rating BETWEEN 0 AND 5),
  active         boolean NOT NULL DEFAULT true,
  contract_start date NOT NULL
);

CREATE TABLE warehouses (
  id                     integer PRIMARY KEY,
  code                   text NOT NULL UNIQUE,
  name                   text NOT NULL,
  region_id              integer NOT NULL REFERENCES regions (id),
  capacity_m3            numeric(10, 1) NOT NULL,
  opened_on              date NOT NULL,
  temperature_controlled boolean NOT NULL DEFAULT false
);

CREATE TABLE products (
  id            integer PRIMARY KEY,
  sku           text NOT NULL UNIQUE,
  name          text NOT NULL,
  category_id   integer NOT NULL REFERENCES categories (id),
  supplier_id   integer NOT NULL REFERENCES suppliers (id),
  unit_price    numeric(12, 2) NOT NULL CHECK (unit_price >= 0),
  currency_code char(3) NOT NULL REFERENCES currencies (code),
  weight_kg     numeric(8, 3),
  launched_on   date NOT NULL,
  discontinued  boolean NOT NULL DEFAULT false,
  description   text
);
-- Value help finds products by any part of their SKU (README, "Index for value help on large
-- tables"): trigrams of the SKU's search form for a search few SKUs match, the SKUs in the
-- order it lists them for one that most match (it reads them in order until it has a page).
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
CREATE INDEX products_sku_search ON products USING gin (tablelock.search_form(sku) public.gin_trgm_ops);
CREATE INDEX products_sku_listed ON products (sku COLLATE tablelock.natural_order, id);

CREATE TABLE customers (
  id            integer PRIMARY KEY,
  name          text NOT NULL,
  region_id     integer NOT NULL REFERENCES regions (id),
  email         text,
  credit_limit  numeric(12, 2) NOT NULL DEFAULT 0,
  registered_on date NOT NULL,
  is_vip        boolean NOT NULL DEFAULT false,
  note          text
);

CREATE TABLE price_lists (
  id            integer PRIMARY KEY,
  name          text NOT NULL,
  currency_code char(3) NOT NULL REFERENCES currencies (code),
  valid_from    date NOT NULL,
  valid_to      date,
  CHECK (valid_to IS NULL OR valid_to >= valid_from)
);

CREATE TABLE price_list_items (
  price_list_id integer NOT NULL REFERENCES price_lists (id),
  product_id    integer NOT NULL REFERENCES products (id),
  price         numeric(12, 2) NOT NULL CHECK (price >= 0),
  min_quantity  integer NOT NULL DEFAULT 1,
  PRIMARY KEY (price_list_id, product_id)
);

CREATE TABLE stock_levels (
  warehouse_id  integer NOT NULL REFERENCES warehouses (id),
  product_id    integer NOT NULL REFERENCES products (id),
  quantity      integer NOT NULL CHECK (quantity >= 0),
  reorder_point integer,
  counted_on    date NOT NULL,
  PRIMARY KEY (warehouse_id, product_id)
);

-- Prices over time (README, "Valid-time tables"): no two periods of a product overlap, which
-- Postgres 18 holds with a WITHOUT OVERLAPS key. Its GiST index compares product_id with
-- btree_gist's operators (the embedded Postgres ships the extension).
CREATE EXTENSION IF NOT EXISTS btree_gist WITH SCHEMA public;
CREATE TABLE product_prices (
  product_id    integer NOT NULL REFERENCES products (id),
  valid         daterange NOT NULL,
  price         numeric(12, 2) NOT NULL CHECK (price >= 0),
  currency_code char(3) NOT NULL REFERENCES currencies (code),
  PRIMARY KEY (product_id, valid WITHOUT OVERLAPS)
);

-- A promotion runs only while its product has a price: a PERIOD foreign key, which holds when
-- the product's price periods together cover the promotion's.
CREATE TABLE product_price_promotions (
  product_id       integer NOT NULL,
  valid            daterange NOT NULL,
  name             text NOT NULL,
  discount_percent numeric(4, 1) NOT NULL CHECK (discount_percent BETWEEN 0 AND 100),
  PRIMARY KEY (product_id, valid WITHOUT OVERLAPS),
  FOREIGN KEY (product_id, PERIOD valid) REFERENCES product_prices (product_id, PERIOD valid)
);

-- Display names and descriptions for the app, by language (README, "Display names").
COMMENT ON TABLE price_list_items IS '{"en": {"name": "Price list items", "description": "The price of a product in a price list."}, "ja": {"name": "価格表明細", "description": "価格表ごとの商品の価格。"}}';
COMMENT ON COLUMN price_list_items.price IS '{"en": {"name": "Price", "description": "In the price list''s currency."}, "ja": {"name": "価格", "description": "価格表の通貨での金額。"}}';
COMMENT ON COLUMN price_list_items.min_quantity IS '{"en": {"name": "Minimum quantity"}, "ja": {"name": "最小数量"}}';
COMMENT ON TABLE stock_levels IS '{"en": {"name": "Stock levels"}, "ja": {"name": "在庫数"}}';
COMMENT ON COLUMN stock_levels.quantity IS '{"en": {"name": "Quantity on hand"}, "ja": {"name": "在庫数量"}}';
COMMENT ON COLUMN stock_levels.reorder_point IS '{"en": {"name": "Reorder point", "description": "Order more when the quantity falls to this."}, "ja": {"name": "発注点", "description": "在庫数量がこの値まで減ったら発注します。"}}';
COMMENT ON COLUMN currencies.minor_units IS 'Digits after the decimal point (ISO 4217).';
-- The other demo tables in both languages, their columns in Japanese (a first-time user of the
-- Japanese app sees 価格 and 仕入先; in English the column names read as they are). The key
-- columns of price_list_items stay bare: a column without a comment has no captions.
COMMENT ON TABLE currencies IS '{"en": {"name": "Currencies"}, "ja": {"name": "通貨"}}';
COMMENT ON COLUMN currencies.code IS '{"ja": {"name": "通貨コード"}}';
COMMENT ON COLUMN currencies.name IS '{"ja": {"name": "名称"}}';
COMMENT ON COLUMN currencies.active IS '{"ja": {"name": "有効"}}';
COMMENT ON TABLE regions IS '{"en": {"name": "Regions"}, "ja": {"name": "地域"}}';
COMMENT ON COLUMN regions.id IS '{"ja": {"name": "ID"}}';
COMMENT ON COLUMN regions.code IS '{"ja": {"name": "地域コード"}}';
COMMENT ON COLUMN regions.name IS '{"ja": {"name": "地域名"}}';
COMMENT ON COLUMN regions.parent_id IS '{"ja": {"name": "親地域"}}';
COMMENT ON TABLE categories IS '{"en": {"name": "Categories"}, "ja": {"name": "カテゴリ"}}';
COMMENT ON COLUMN categories.id IS '{"ja": {"name": "ID"}}';
COMMENT ON COLUMN categories.name IS '{"ja": {"name": "カテゴリ名"}}';
COMMENT ON COLUMN categories.parent_id IS '{"ja": {"name": "親カテゴリ"}}';
COMMENT ON COLUMN categories.sort_order IS '{"ja": {"name": "表示順"}}';
COMMENT ON TABLE suppliers IS '{"en": {"name": "Suppliers"}, "ja": {"name": "仕入先"}}';
COMMENT ON COLUMN suppliers.id IS '{"ja": {"name": "ID"}}';
COMMENT ON COLUMN suppliers.name IS '{"ja": {"name": "仕入先名"}}';
COMMENT ON COLUMN suppliers.region_id IS '{"ja": {"name": "地域"}}';
COMMENT ON COLUMN suppliers.currency_code IS '{"ja": {"name": "通貨"}}';
COMMENT ON COLUMN suppliers.email IS '{"ja": {"name": "メールアドレス"}}';
COMMENT ON COLUMN suppliers.rating IS '{"ja": {"name": "評価"}}';
COMMENT ON COLUMN suppliers.active IS '{"ja": {"name": "取引中"}}';
COMMENT ON COLUMN suppliers.contract_start IS '{"ja": {"name": "契約開始日"}}';
COMMENT ON TABLE warehouses IS '{"en": {"name": "Warehouses"}, "ja": {"name": "倉庫"}}';
COMMENT ON COLUMN warehouses.id IS '{"ja": {"name": "ID"}}';
COMMENT ON COLUMN warehouses.code IS '{"ja": {"name": "倉庫コード"}}';
COMMENT ON COLUMN warehouses.name IS '{"ja": {"name": "倉庫名"}}';
COMMENT ON COLUMN warehouses.region_id IS '{"ja": {"name": "地域"}}';
COMMENT ON COLUMN warehouses.capacity_m3 IS '{"ja": {"name": "容量（m³）"}}';
COMMENT ON COLUMN warehouses.opened_on IS '{"ja": {"name": "開設日"}}';
COMMENT ON COLUMN warehouses.temperature_controlled IS '{"ja": {"name": "温度管理"}}';
COMMENT ON TABLE products IS '{"en": {"name": "Products"}, "ja": {"name": "商品"}}';
COMMENT ON COLUMN products.id IS '{"ja": {"name": "ID"}}';
COMMENT ON COLUMN products.sku IS '{"ja": {"name": "SKU"}}';
COMMENT ON COLUMN products.name IS '{"ja": {"name": "商品名"}}';
COMMENT ON COLUMN products.category_id IS '{"ja": {"name": "カテゴリ"}}';
COMMENT ON COLUMN products.supplier_id IS '{"ja": {"name": "仕入先"}}';
COMMENT ON COLUMN products.unit_price IS '{"ja": {"name": "価格"}}';
COMMENT ON COLUMN products.currency_code IS '{"ja": {"name": "通貨"}}';
COMMENT ON COLUMN products.weight_kg IS '{"ja": {"name": "重量（kg）"}}';
COMMENT ON COLUMN products.launched_on IS '{"ja": {"name": "発売日"}}';
COMMENT ON COLUMN products.discontinued IS '{"ja": {"name": "販売終了"}}';
COMMENT ON COLUMN products.description IS '{"ja": {"name": "説明"}}';
COMMENT ON TABLE customers IS '{"en": {"name": "Customers"}, "ja": {"name": "顧客"}}';
COMMENT ON COLUMN customers.id IS '{"ja": {"name": "ID"}}';
COMMENT ON COLUMN customers.name IS '{"ja": {"name": "顧客名"}}';
COMMENT ON COLUMN customers.region_id IS '{"ja": {"name": "地域"}}';
COMMENT ON COLUMN customers.email IS '{"ja": {"name": "メールアドレス"}}';
COMMENT ON COLUMN customers.credit_limit IS '{"ja": {"name": "与信限度額"}}';
COMMENT ON COLUMN customers.registered_on IS '{"ja": {"name": "登録日"}}';
COMMENT ON COLUMN customers.is_vip IS '{"ja": {"name": "VIP"}}';
COMMENT ON COLUMN customers.note IS '{"ja": {"name": "備考"}}';
COMMENT ON TABLE price_lists IS '{"en": {"name": "Price lists"}, "ja": {"name": "価格表"}}';
COMMENT ON COLUMN price_lists.id IS '{"ja": {"name": "ID"}}';
COMMENT ON COLUMN price_lists.name IS '{"ja": {"name": "価格表名"}}';
COMMENT ON COLUMN price_lists.currency_code IS '{"ja": {"name": "通貨"}}';
COMMENT ON COLUMN price_lists.valid_from IS '{"ja": {"name": "適用開始日"}}';
COMMENT ON COLUMN price_lists.valid_to IS '{"ja": {"name": "適用終了日"}}';
COMMENT ON COLUMN stock_levels.warehouse_id IS '{"ja": {"name": "倉庫"}}';
COMMENT ON COLUMN stock_levels.product_id IS '{"ja": {"name": "商品"}}';
COMMENT ON COLUMN stock_levels.counted_on IS '{"ja": {"name": "棚卸日"}}';

COMMENT ON TABLE product_prices IS '{"en": {"name": "Product prices", "description": "A product''s price for a period."}, "ja": {"name": "商品価格", "description": "期間ごとの商品の価格。"}}';
COMMENT ON COLUMN product_prices.product_id IS '{"ja": {"name": "商品"}}';
COMMENT ON COLUMN product_prices.valid IS '{"en": {"name": "Valid", "description": "From the first day, up to but not including the second."}, "ja": {"name": "適用期間", "description": "開始日から、終了日の前日まで。"}}';
COMMENT ON COLUMN product_prices.price IS '{"ja": {"name": "価格"}}';
COMMENT ON COLUMN product_prices.currency_code IS '{"ja": {"name": "通貨"}}';
COMMENT ON TABLE product_price_promotions IS '{"en": {"name": "Price promotions"}, "ja": {"name": "価格キャンペーン"}}';
COMMENT ON COLUMN product_price_promotions.product_id IS '{"ja": {"name": "商品"}}';
COMMENT ON COLUMN product_price_promotions.valid IS '{"en": {"name": "Valid"}, "ja": {"name": "適用期間"}}';
COMMENT ON COLUMN product_price_promotions.name IS '{"ja": {"name": "キャンペーン名"}}';
COMMENT ON COLUMN product_price_promotions.discount_percent IS '{"ja": {"name": "割引率（%）"}}';

INSERT INTO currencies (code, name, minor_units, active) VALUES
  ('JPY', 'Japanese yen', 0, true),
  ('USD', 'US dollar', 2, true),
  ('EUR', 'Euro', 2, true),
  ('GBP', 'Pound sterling', 2, true),
  ('CNY', 'Renminbi', 2, true),
  ('KRW', 'South Korean won', 0, false);

INSERT INTO regions (id, code, name, parent_id) VALUES
  (1, 'APAC', 'Asia Pacific', NULL),
  (2, 'EMEA', 'Europe, Middle East and Africa', NULL),
  (3, 'AMER', 'Americas', NULL),
  (10, 'JP-KANTO', 'Kanto', 1),
  (11, 'JP-KANSAI', 'Kansai', 1),
  (12, 'JP-KYUSHU', 'Kyushu', 1),
  (13, 'CN-EAST', 'East China', 1),
  (20, 'EU-WEST', 'Western Europe', 2),
  (21, 'EU-NORTH', 'Northern Europe', 2),
  (30, 'US-WEST', 'US West', 3),
  (31, 'US-EAST', 'US East', 3);

INSERT INTO categories (id, name, parent_id, sort_order) VALUES
  (1, 'Food', NULL, 1),
  (2, 'Beverages', NULL, 2),
  (3, 'Household', NULL, 3),
  (4, 'Stationery', NULL, 4),
  (11, 'Rice and noodles', 1, 1),
  (12, 'Seasonings', 1, 2),
  (13, 'Frozen food', 1, 3),
  (21, 'Tea', 2, 1),
  (22, 'Coffee', 2, 2),
  (23, 'Soft drinks', 2, 3),
  (31, 'Cleaning', 3, 1),
  (32, 'Kitchenware', 3, 2),
  (41, 'Paper', 4, 1),
  (42, 'Pens', 4, 2);

INSERT INTO suppliers (id, name, region_id, currency_code, email, rating, active, contract_start)
SELECT i,
       format('Supplier %s %s', (ARRAY['Sakura', 'Fuji', 'Aoba', 'Nordic', 'Atlas', 'Pioneer'])[1 + i % 6], i),
       (ARRAY[10, 11, 12, 13, 20, 21, 30, 31])[1 + i % 8],
       (ARRAY['JPY', 'JPY', 'USD', 'EUR', 'GBP', 'CNY'])[1 + i % 6],
       CASE WHEN i % 7 = 0 THEN NULL ELSE format('orders%s@supplier%s.example', i, i) END,
       CASE WHEN i % 5 = 0 THEN NULL ELSE round((i * 37 % 50) / 10.0, 1) END,
       i % 11 <> 0,
       date '2015-01-01' + (i * 53 % 3650)
FROM generate_series(1, 200) AS i;

INSERT INTO warehouses (id, code, name, region_id, capacity_m3, opened_on, temperature_controlled) VALUES
  (1, 'WH-TKY', 'Tokyo central', 10, 48000.0, '2012-04-01', true),
  (2, 'WH-OSA', 'Osaka bay', 11, 36500.5, '2016-10-01', false),
  (3, 'WH-FUK', 'Fukuoka', 12, 12000.0, '2019-07-15', true),
  (4, 'WH-RTM', 'Rotterdam', 20, 52000.0, '2018-02-01', false);

INSERT INTO products (id, sku, name, category_id, supplier_id, unit_price, currency_code,
                      weight_kg, launched_on, discontinued, description)
SELECT i,
       format('SKU-%s', lpad(i::text, 6, '0')),
       format('%s %s #%s',
              (ARRAY['Premium', 'Classic', 'Organic', 'Value', 'Deluxe', 'Fresh', 'Eco'])[1 + i % 7],
              (ARRAY['rice', 'soy sauce', 'gyoza', 'green tea', 'coffee beans', 'lemonade',
                     'detergent', 'frying pan', 'notebook', 'gel pen'])[1 + i % 10],
              i),
       (ARRAY[11, 12, 13, 21, 22, 23, 31, 32, 41, 42])[1 + i % 10],
       1 + i % 200,
       round((100 + (i * 7919) % 99900) / 100.0, 2),
       (ARRAY['JPY', 'JPY', 'JPY', 'USD', 'EUR'])[1 + i % 5],
       CASE WHEN i % 9 = 0 THEN NULL ELSE round(((i * 31) % 25000) / 1000.0 + 0.05, 3) END,
       date '2010-01-01' + (i * 13 % 5800),
       i % 17 = 0,
       CASE WHEN i % 3 = 0 THEN format('Demo product %s, pack of %s', i, 1 + i % 24) END
FROM generate_series(1, 100000) AS i;

INSERT INTO customers (id, name, region_id, email, credit_limit, registered_on, is_vip, note)
SELECT i,
       format('%s %s Co., Ltd.',
              (ARRAY['Yamada', 'Suzuki', 'Tanaka', 'Watanabe', 'Ito', 'Nakamura', 'Kobayashi', 'Kato'])[1 + i % 8],
              (ARRAY['Trading', 'Foods', 'Retail', 'Logistics', 'Mart'])[1 + i % 5]),
       (ARRAY[10, 11, 12, 13, 20, 21, 30, 31])[1 + (i * 3) % 8],
       CASE WHEN i % 13 = 0 THEN NULL ELSE format('purchasing%s@customer.example', i) END,
       (i * 104729 % 500) * 10000,
       date '2005-04-01' + (i * 17 % 7000),
       i % 25 = 0,
       CASE WHEN i % 40 = 0 THEN 'Invoice monthly' END
FROM generate_series(1, 5000) AS i;

INSERT INTO price_lists (id, name, currency_code, valid_from, valid_to) VALUES
  (1, 'Standard 2026 (JPY)', 'JPY', '2026-01-01', NULL),
  (2, 'Wholesale 2026 (JPY)', 'JPY', '2026-01-01', '2026-12-31'),
  (3, 'Export 2026 (USD)', 'USD', '2026-04-01', NULL);

INSERT INTO price_list_items (price_list_id, product_id, price, min_quantity)
SELECT l, p, round((100 + (p * 7919) % 99900) / 100.0 * (1 - l * 0.05), 2), CASE l WHEN 2 THEN 10 ELSE 1 END
FROM generate_series(1, 3) AS l, generate_series(1, 2000) AS p;

INSERT INTO stock_levels (warehouse_id, product_id, quantity, reorder_point, counted_on)
SELECT w, p, (p * 37 + w * 101) % 1200, CASE WHEN p % 4 = 0 THEN NULL ELSE 50 + p % 150 END,
       date '2026-10-01' + (p % 45)
FROM generate_series(1, 4) AS w, generate_series(1, 2500) AS p;

-- Products 1-150 have two or three consecutive price periods; every fourth one's last period
-- has no end.
INSERT INTO product_prices (product_id, valid, price, currency_code)
SELECT p.id,
       daterange((date '2025-01-01' + make_interval(months => 6 * (k - 1)))::date,
                 CASE WHEN k = 2 + (p.id % 3 <> 0)::int AND p.id % 4 = 0 THEN NULL
                      ELSE (date '2025-01-01' + make_interval(months => 6 * k))::date END),
       round(p.unit_price * (1 + 0.05 * (k - 1)), 2),
       p.currency_code
FROM products AS p, generate_series(1, 3) AS k
WHERE p.id <= 150 AND k <= 2 + (p.id % 3 <> 0)::int;

-- Every tenth of them has a summer promotion across the change of its first two price periods.
INSERT INTO product_price_promotions (product_id, valid, name, discount_percent)
SELECT id, daterange('2025-06-15', '2025-07-16'), format('Summer sale %s', id), 5 + id % 4 * 5
FROM generate_series(10, 150, 10) AS id;

ANALYZE;
