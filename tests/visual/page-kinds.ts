/** One page of every kind, in both languages: what the visual and layout tests look at. */
export const pageKinds: [name: string, url: string][] = [
  ['landing', '/'], ['landing-no', '/no/'],
  ['audience-home', '/hub/'], ['audience-home-shop', '/shop/'], ['audience-home-no', '/no/workwear/'],
  ['product', '/shop/product/'], ['product-no', '/no/hub/product/'], ['product-workwear', '/workwear/product/'],
  ['plan-pricing', '/hub/pricing/'], ['plan-pricing-no', '/no/hub/pricing/'],
  ['quote-pricing', '/workwear/pricing/'], ['quote-pricing-no', '/no/shop/pricing/'],
  ['book-meeting', '/hub/book-meeting/'], ['book-meeting-no', '/no/shop/book-meeting/'],
  ['contact', '/contactus/'], ['contact-no', '/no/hub/contactus/'],
  ['contact-sent', '/contactus/sent/'], ['contact-failed-no', '/no/contactus/failed/'],
  ['booking-booked', '/book-meeting/booked/'], ['booking-booked-no', '/no/book-meeting/booked/'], ['booking-failed-no', '/no/book-meeting/failed/'],
  ['our-story', '/ourstory/'], ['our-story-no', '/no/workwear/ourstory/'],
  ['launch-campaign', '/hub/launch-campaign/'], ['launch-campaign-no', '/no/hub/launch-campaign/'],
  ['presentation', '/hub-presentation-english/'], ['presentation-no', '/hub-presentation-no/'],
  ['legal', '/terms/'], ['legal-no', '/no/privacy/'],
  ['blog-list', '/blog/'], ['blog-list-no', '/no/blog/'], ['blog-category-no', '/no/blog/category/saas/'],
  ['blog-post', '/blog/why-repair-beats-recycling/'], ['blog-post-no', '/no/blog/building-a-local-repair-network/'],
  ['blog-post-table', '/workwear/blog/qr-codes-for-workwear-repairs/'],
  ['search', '/search/'], ['search-no', '/no/search/'],
  ['auth', '/auth/'], ['auth-no', '/no/auth/'], ['admin', '/admin/settings/'],
  ['not-found', '/missing-page/'], ['not-found-no', '/no/missing-page/'],
];

/** Pages shorter than a desktop viewport, where the footer must still reach the bottom (the admin's pages have no site footer). */
export const shortPages = ['/missing-page/', '/no/missing-page/', '/contactus/sent/', '/no/contactus/failed/', '/book-meeting/booked/', '/no/book-meeting/booked/', '/no/book-meeting/failed/'];
