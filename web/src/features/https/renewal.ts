/** A certificate with fewer days left is shown in orange: ACME renews it (docs/https.md). */
export const renewWithinDays = 30;
