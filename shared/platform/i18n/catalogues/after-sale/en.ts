/**
 * English, after the sale: the member area and its access mail, signup-form confirmations, the
 * invoice page, the download page, the refund mail and the checkout's newsletter box. Part of the
 * English catalogue (../en.ts); every language has the same keys (the completeness test).
 */
export const afterSaleEn = {
  // Checkout: the newsletter box's words when the seller kept the default
  'checkout.optInDefault': 'Email me news and offers from {store}. I can unsubscribe at any time.',
  // Member area
  'area.posts': 'Posts',
  'area.community': 'Community',
  'area.pinned': 'Pinned',
  'area.noPosts': 'No posts yet.',
  'area.older': 'Older',
  'area.by': 'by {author}',
  'area.replies': '{count, plural, one {# reply} other {# replies}}',
  'area.locked': 'locked',
  'area.noThreads': 'No threads yet. Start the first one.',
  'area.startThread': 'Start a thread',
  'area.threadTitle': 'Title',
  'area.message': 'Message',
  'area.postThread': 'Post thread',
  'area.threadLocked': 'This thread is locked: no new replies.',
  'area.reply': 'Reply',
  'area.yourReply': 'Your reply',
  'area.invalidTitle': 'This link is not valid',
  'area.invalid': 'Use the most recent link from your membership email.',
  'area.endedTitle': 'Your membership has ended',
  'area.ended': 'This area is open to active members only.',
  'area.bannedTitle': 'You cannot access this community',
  'area.banned': 'The creator has removed your access.',
  'area.closedTitle': 'This membership is closed',
  'area.closed': 'The creator has closed this membership.',
  'area.notFoundTitle': 'Not found',
  'area.notFound': 'This page does not exist or was removed.',
  'area.formExpiredTitle': 'The form expired',
  'area.formExpired': 'Reload the page and try again.',
  'area.communityOffTitle': 'No community here',
  'area.communityOff': 'The community of this membership is switched off.',
  'area.notSentTitle': 'Your message was not posted',
  // Member area: the access mail
  'access.subject': 'Your access to {membership}',
  'access.welcome': 'Welcome to {membership}.',
  'access.open': 'Open the member area',
  'access.openToRead': '{link} to read the members-only posts and join the community.',
  'access.readHere': 'Read the members-only posts and join the community here: {url}',
  'access.personal': 'This link is personal: do not share it.',
  // Signup forms: double opt-in mail and the page its link opens
  'form.confirmSubject': 'Please confirm your subscription',
  'form.confirmPreview': 'One click and you are in.',
  'form.confirmAsk': 'Please confirm that you want to subscribe with {email}.',
  'form.confirmButton': 'Confirm my subscription',
  'form.confirmIgnore': 'If you did not ask for this, ignore this mail: nothing happens without the click.',
  'form.get': 'Get {name}',
  'form.goneTitle': 'This link no longer works',
  'form.gone': 'This confirmation link was already used or has expired. If you are not subscribed yet, sign up again to get a new one.',
  // Invoice page
  'invoice.title': 'Invoice {number}',
  'invoice.yours': 'Your invoice',
  'invoice.billedTo': 'Billed to',
  'invoice.vatIdLine': 'VAT ID {vatId}',
  'invoice.noDetails': 'Issued without company details.',
  'invoice.download': 'Download the invoice (PDF)',
  'invoice.creditNote': 'Download the credit note for the refund (PDF)',
  'invoice.business': 'Buying for a business? Add its details before you download: they are printed on the invoice and cannot be changed afterwards.',
  'invoice.companyName': 'Company name',
  'invoice.companyAddress': 'Company address',
  'invoice.vatId': 'VAT ID',
  'invoice.optional': 'Optional',
  'invoice.addressHint': 'Optional: street, postcode, city, country',
  'invoice.vatHint': 'Optional: for example DE123456789',
  'invoice.save': 'Save and download the invoice',
  'invoice.withoutDetails': 'Download without company details',
  'invoice.errorVat': 'Enter two letters for the country, then the number (for example DE123456789)',
  'invoice.errorLong': 'This is too long: please shorten it',
  'invoice.alreadyIssued': 'This invoice was already issued: its details can no longer change.',
  'invoice.notFoundTitle': 'Invoice not found',
  'invoice.notFound': 'This link does not lead to an order. Check the link in your receipt.',
  // Download page
  'downloads.revoked': 'These files are no longer available: the order was refunded. Questions? Contact {seller}.',
  'downloads.linkValid': 'Each link works for an hour; come back to this page from your receipt any time for fresh ones.',
  'downloads.none': 'There are no files to download for this order.',
  // Refund mail
  'refund.subject': 'Your refund for {product}: {amount}',
  'refund.preview': '{amount} is on its way back to your card.',
  'refund.heading': 'Your refund is on its way',
  'refund.full': '{seller} refunded your payment of {amount} for {product} on {date}.',
  'refund.partial': '{seller} refunded {amount} of your {paid} payment for {product} on {date}.',
  'refund.when': 'The money goes back to the card you paid with; most banks show it within 5 to 10 business days.',
} as const;

export type AfterSaleKey = keyof typeof afterSaleEn;
/** Another language's part: the same keys (a missing one falls back to English and fails the completeness test). */
export type AfterSaleCatalogue = Partial<Record<AfterSaleKey, string>>;
