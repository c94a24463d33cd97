/**
 * The sources an import can come from, and the CSV exports each platform writes (column names as
 * the platform writes them, from its public help pages; see README.md). `fields` maps our field
 * of a kind to the platform's column, which is what the mapping is auto-detected from.
 */
export const KINDS = ['products', 'customers', 'orders', 'subscribers'] as const;
export type Kind = (typeof KINDS)[number];

/** The fields of each kind the importer reads; `required` ones must be mapped and non-empty. */
export const FIELDS: Record<Kind, { required: readonly string[]; optional: readonly string[] }> = {
  products: { required: ['name', 'price'], optional: ['sourceId', 'description', 'fileUrl'] },
  customers: { required: ['email'], optional: ['name', 'firstName', 'lastName', 'country'] },
  orders: { required: ['email'], optional: ['orderId', 'productName', 'productId', 'amount', 'currency', 'date', 'refunded', 'name', 'country'] },
  subscribers: { required: ['email'], optional: ['name', 'firstName', 'lastName', 'status', 'optedInAt', 'tags'] },
};

export const fieldsOf = (kind: Kind) => [...FIELDS[kind].required, ...FIELDS[kind].optional];

export interface PlatformExport {
  kind: Kind;
  /** What the platform calls the export, and where it is in its dashboard. */
  name: string;
  /** Every column of the export, in the platform's order and spelling. */
  columns: string[];
  /** Our field -> the platform's column. */
  fields: Record<string, string>;
}

export interface Platform {
  id: string;
  name: string;
  category: string;
  /** The wording of the opt-in the platform collects, stored on each imported subscriber's consent. */
  consentWording: string;
  apiSupported: boolean;
  docs: string;
  exports: PlatformExport[];
}

const GUMROAD_SALES = [
  'Purchase ID',
  'Item Name',
  'Buyer Name',
  'Purchase Email',
  'Buyer Email',
  'Do not contact?',
  'Purchase Date',
  'Purchase Time (UTC timezone)',
  'Subtotal ($)',
  'Taxes ($)',
  'Shipping ($)',
  'Sale Price ($)',
  'Fees ($)',
  'Net Total ($)',
  'Tip ($)',
  'Tax Included in Price?',
  'Street Address',
  'City',
  'Zip Code',
  'State',
  'Country',
  'Referrer',
  'Refunded?',
  'Partial Refund ($)',
  'Fully Refunded?',
  'Disputed?',
  'Dispute Won?',
  'Variants',
  'Discount Code',
  'Recurring Charge?',
  'Free trial purchase?',
  'Pre-order authorization?',
  'Product ID',
  'Order Number',
];

const SHOPIFY_PRODUCTS = [
  'Handle',
  'Title',
  'Body (HTML)',
  'Vendor',
  'Product Category',
  'Type',
  'Tags',
  'Published',
  'Option1 Name',
  'Option1 Value',
  'Variant SKU',
  'Variant Grams',
  'Variant Inventory Tracker',
  'Variant Inventory Qty',
  'Variant Inventory Policy',
  'Variant Fulfillment Service',
  'Variant Price',
  'Variant Compare At Price',
  'Variant Requires Shipping',
  'Variant Taxable',
  'Variant Barcode',
  'Image Src',
  'Image Position',
  'Image Alt Text',
  'Gift Card',
  'SEO Title',
  'SEO Description',
  'Status',
];

const SHOPIFY_CUSTOMERS = [
  'Customer ID',
  'First Name',
  'Last Name',
  'Email',
  'Accepts Email Marketing',
  'Default Address Company',
  'Default Address Address1',
  'Default Address Address2',
  'Default Address City',
  'Default Address Province Code',
  'Default Address Country Code',
  'Default Address Zip',
  'Default Address Phone',
  'Phone',
  'Accepts SMS Marketing',
  'Total Spent',
  'Total Orders',
  'Note',
  'Tax Exempt',
  'Tags',
];

const SHOPIFY_ORDERS = [
  'Name',
  'Email',
  'Financial Status',
  'Paid at',
  'Fulfillment Status',
  'Fulfilled at',
  'Accepts Marketing',
  'Currency',
  'Subtotal',
  'Shipping',
  'Taxes',
  'Total',
  'Discount Code',
  'Discount Amount',
  'Shipping Method',
  'Created at',
  'Lineitem quantity',
  'Lineitem name',
  'Lineitem price',
  'Lineitem sku',
  'Billing Name',
  'Billing Country',
  'Refunded Amount',
  'Id',
];

const MAILCHIMP_AUDIENCE = [
  'Email Address',
  'First Name',
  'Last Name',
  'Address',
  'Phone Number',
  'MEMBER_RATING',
  'OPTIN_TIME',
  'OPTIN_IP',
  'CONFIRM_TIME',
  'CONFIRM_IP',
  'LATITUDE',
  'LONGITUDE',
  'GMTOFF',
  'DSTOFF',
  'TIMEZONE',
  'CC',
  'REGION',
  'LAST_CHANGED',
  'LEID',
  'EUID',
  'NOTES',
  'TAGS',
];

export const PLATFORMS: Platform[] = [
  {
    id: 'gumroad',
    name: 'Gumroad',
    category: 'digital-goods store',
    consentWording: 'Gumroad buyer who did not tick "Do not contact"',
    apiSupported: true,
    docs: 'https://gumroad.com/help/article/74-the-analytics-dashboard (Sales CSV); https://app.gumroad.com/api (API v2: GET /v2/products, GET /v2/sales with page_key)',
    exports: [
      {
        kind: 'orders',
        name: 'Sales CSV (Analytics > Sales > Export)',
        columns: GUMROAD_SALES,
        fields: {
          orderId: 'Purchase ID',
          productName: 'Item Name',
          productId: 'Product ID',
          name: 'Buyer Name',
          email: 'Purchase Email',
          date: 'Purchase Date',
          amount: 'Sale Price ($)',
          refunded: 'Fully Refunded?',
          country: 'Country',
        },
      },
    ],
  },
  {
    id: 'shopify',
    name: 'Shopify',
    category: 'creator-commerce platform',
    consentWording: 'Shopify customer with "Accepts Email Marketing" set to yes',
    apiSupported: true,
    docs: 'https://help.shopify.com/en/manual/products/import-export/using-csv ; https://help.shopify.com/en/manual/customers/import-export-customers ; https://help.shopify.com/en/manual/fulfillment/managing-orders/exporting-orders',
    exports: [
      {
        kind: 'products',
        name: 'Products CSV (Products > Export)',
        columns: SHOPIFY_PRODUCTS,
        fields: { sourceId: 'Handle', name: 'Title', description: 'Body (HTML)', price: 'Variant Price' },
      },
      {
        kind: 'customers',
        name: 'Customers CSV (Customers > Export)',
        columns: SHOPIFY_CUSTOMERS,
        fields: { email: 'Email', firstName: 'First Name', lastName: 'Last Name', country: 'Default Address Country Code' },
      },
      {
        kind: 'orders',
        name: 'Orders CSV (Orders > Export)',
        columns: SHOPIFY_ORDERS,
        fields: {
          orderId: 'Name',
          email: 'Email',
          productName: 'Lineitem name',
          amount: 'Total',
          currency: 'Currency',
          date: 'Created at',
          refunded: 'Financial Status',
          name: 'Billing Name',
          country: 'Billing Country',
        },
      },
      {
        kind: 'subscribers',
        name: 'Customers CSV (Customers > Export), marketing consent column',
        columns: SHOPIFY_CUSTOMERS,
        fields: { email: 'Email', firstName: 'First Name', lastName: 'Last Name', status: 'Accepts Email Marketing', tags: 'Tags' },
      },
    ],
  },
  {
    id: 'mailchimp',
    name: 'Mailchimp',
    category: 'email platform',
    consentWording: 'Opted in to the Mailchimp audience',
    apiSupported: true,
    docs: 'https://mailchimp.com/help/view-export-contacts/ (subscribed_members_export, unsubscribed_members_export, cleaned_members_export)',
    exports: [
      {
        kind: 'subscribers',
        name: 'Audience export (one file per status: subscribed_, unsubscribed_, cleaned_members_export_*.csv)',
        columns: MAILCHIMP_AUDIENCE,
        fields: { email: 'Email Address', firstName: 'First Name', lastName: 'Last Name', optedInAt: 'OPTIN_TIME', tags: 'TAGS' },
      },
    ],
  },
];

export const SOURCES = ['csv', ...PLATFORMS.map((platform) => platform.id)] as const;

export const platformOf = (source: string): Platform | undefined => PLATFORMS.find((platform) => platform.id === source);

/** Our generic column names for the `csv` source, and the spellings people commonly use. */
export const GENERIC_COLUMNS: Record<string, string[]> = {
  sourceId: ['id', 'product id', 'product_id', 'sku', 'handle'],
  name: ['name', 'title', 'product name', 'full name', 'buyer name', 'customer name'],
  price: ['price', 'variant price', 'amount', 'price ($)', 'price (usd)'],
  description: ['description', 'body', 'summary'],
  fileUrl: ['file url', 'file_url', 'file', 'download url', 'url'],
  email: ['email', 'email address', 'e-mail', 'email_address', 'purchase email', 'buyer email'],
  firstName: ['first name', 'first_name', 'firstname'],
  lastName: ['last name', 'last_name', 'lastname'],
  country: ['country', 'country code', 'cc'],
  orderId: ['order id', 'order_id', 'order', 'order number', 'purchase id'],
  productName: ['product', 'product name', 'item name', 'item'],
  productId: ['product id', 'product_id'],
  amount: ['amount', 'total', 'price', 'sale price'],
  currency: ['currency'],
  date: ['date', 'created at', 'created_at', 'purchase date', 'paid at'],
  refunded: ['refunded', 'refunded?', 'status'],
  status: ['status', 'subscriber status', 'state'],
  optedInAt: ['opted in at', 'optin_time', 'opt-in date', 'subscribed at', 'created_at', 'created at'],
  tags: ['tags', 'tag'],
};
