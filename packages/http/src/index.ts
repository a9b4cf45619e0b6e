/**
 * @tppkit/http: Effect services for the bank's token, balance-check and standing-order operations.
 *
 * @since 0.1.0
 */
export {}
