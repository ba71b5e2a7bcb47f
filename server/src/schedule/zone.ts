/** The zone of the repeat options' wall-clock times (schedules, duty shifts): the server's. */
export const scheduleZone = () => process.env.TZ || Intl.DateTimeFormat().resolvedOptions().timeZone;
