/** Bulk email sends (part 2 §2.1 Subscribers, §2.5 Sales list screen): their progress after sending and the
 * retry of their failed messages, shared by the subscribers' and the sales' Email Subscribers dialogs. */
export { useMailSend, useRetryMailSend } from './api/mail-sends.ts';
