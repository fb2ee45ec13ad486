/** The pages observe.bench.ts measures: per bed app a list, a form, a long page and more; then the back office. */
import type { Apps } from '../test/real-apps/bed.js';

export interface BenchPage {
  name: string;
  url: string;
}

export function bedPages(apps: Apps): BenchPage[] {
  const { wordpress: wp, mediawiki: mw, phpmyadmin: pma, roundcube: rc } = apps;
  const report = wp.seed.posts['Quarterly report'];
  return [
    { name: 'wordpress dashboard', url: wp.startUrl },
    { name: 'wordpress posts (list)', url: `${wp.origin}/wp-admin/edit.php` },
    { name: 'wordpress users (list)', url: `${wp.origin}/wp-admin/users.php` },
    { name: 'wordpress add user (form)', url: `${wp.origin}/wp-admin/user-new.php` },
    { name: 'wordpress new post (block editor)', url: `${wp.origin}/wp-admin/post-new.php` },
    { name: 'wordpress quarterly report (long)', url: `${wp.origin}/?p=${report}` },
    { name: 'mediawiki main page', url: mw.startUrl },
    { name: 'mediawiki server inventory (table)', url: `${mw.origin}/index.php/Server_inventory` },
    { name: 'mediawiki onboarding handbook (long)', url: `${mw.origin}/index.php/Onboarding_handbook` },
    { name: 'mediawiki edit Tools (form)', url: `${mw.origin}/index.php?title=Tools&action=edit` },
    { name: 'mediawiki all pages (list)', url: `${mw.origin}/index.php/Special:AllPages` },
    { name: 'phpmyadmin shop tables (list)', url: pma.startUrl },
    {
      name: 'phpmyadmin orders rows (25 of 60)',
      url: `${pma.origin}/index.php?route=/sql&db=shop&table=orders&pos=0`,
    },
    {
      name: 'phpmyadmin insert customer (form)',
      url: `${pma.origin}/index.php?route=/table/change&db=shop&table=customers`,
    },
    {
      name: 'phpmyadmin orders structure',
      url: `${pma.origin}/index.php?route=/table/structure&db=shop&table=orders`,
    },
    { name: 'roundcube inbox (list)', url: rc.startUrl },
    {
      name: 'roundcube message with attachment',
      url: `${rc.origin}/?_task=mail&_mbox=INBOX&_uid=3&_action=show`,
    },
    { name: 'roundcube compose (form)', url: `${rc.origin}/?_task=mail&_action=compose` },
    { name: 'roundcube folder settings', url: `${rc.origin}/?_task=settings&_action=folders` },
  ];
}

export function backofficePages(origin: string): BenchPage[] {
  const shell = (view: string) => `${origin}/app?view=${encodeURIComponent(view)}`;
  return [
    { name: 'backoffice member lookup (form)', url: shell('/app/members') },
    { name: 'backoffice member', url: shell('/app/members/M-1001') },
    { name: 'backoffice tickets (list)', url: shell('/app/tickets') },
    { name: 'backoffice ticket', url: shell('/app/tickets/T-000101') },
    { name: 'backoffice tickets, 500 rows (long)', url: shell('/app/tickets?scenario=long_table') },
  ];
}
