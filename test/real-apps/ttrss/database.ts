import { createHash, randomBytes } from 'node:crypto';
import type { RowDataPacket } from 'mysql2/promise';
import {
  TTRSS_ADMIN,
  TTRSS_ARTICLES,
  TTRSS_CATEGORIES,
  TTRSS_FEEDS,
  TTRSS_LABELS,
  TTRSS_USERS,
} from './seed-data.js';

type Query = <T extends RowDataPacket = RowDataPacket>(sql: string, params?: unknown[]) => Promise<T[]>;

export interface TtrssFeed {
  id: number;
  title: string;
  category: string | null;
  url: string;
  /** Unread articles of the feed. */
  unread: number;
}

export interface TtrssArticle {
  id: number;
  title: string;
  author: string;
  feed: string | null;
  unread: boolean;
  starred: boolean;
  labels: string[];
  note: string;
}

export interface TtrssLabel {
  id: number;
  caption: string;
  fg: string;
  bg: string;
}

/** The administrator's feeds, articles and labels, read with SQL from tt-rss's own tables. */
export interface TtrssState {
  feeds(): Promise<TtrssFeed[]>;
  feedByTitle(title: string): Promise<TtrssFeed | undefined>;
  /** The administrator's article with exactly this title, or undefined. */
  article(title: string): Promise<TtrssArticle | undefined>;
  labels(): Promise<TtrssLabel[]>;
  categories(): Promise<string[]>;
}

/** tt-rss's own hash for auth_internal: MODE2, SHA-256 of salt and password. */
function passwordHash(password: string): { hash: string; salt: string } {
  const salt = randomBytes(125).toString('hex').slice(0, 250);
  return {
    hash: `MODE2:${createHash('sha256')
      .update(salt + password)
      .digest('hex')}`,
    salt,
  };
}

const sqlDate = (iso: string) => iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, '');

/** Writes the seed into tt-rss's tables, as its own code would have: users, categories, feeds, articles, labels. */
export async function seedTtrss(
  query: Query,
): Promise<{ users: Record<string, number>; feeds: Record<string, number> }> {
  const users: Record<string, number> = {};
  const admin = passwordHash(TTRSS_ADMIN.password);
  await query(
    "UPDATE ttrss_users SET pwd_hash = ?, salt = ?, full_name = ?, created = NOW() WHERE login = 'admin'",
    [admin.hash, admin.salt, TTRSS_ADMIN.fullName],
  );
  const [adminRow] = await query("SELECT id FROM ttrss_users WHERE login = 'admin'");
  const owner = Number(adminRow?.id);
  users[TTRSS_ADMIN.login] = owner;
  for (const user of TTRSS_USERS) {
    const { hash, salt } = passwordHash(user.password);
    await query(
      'INSERT INTO ttrss_users (login, pwd_hash, salt, access_level, full_name, created) VALUES (?, ?, ?, 0, ?, NOW())',
      [user.login, hash, salt, user.fullName],
    );
    const [row] = await query('SELECT id FROM ttrss_users WHERE login = ?', [user.login]);
    users[user.login] = Number(row?.id);
  }
  const categories = new Map<string, number>();
  for (const [order, title] of TTRSS_CATEGORIES.entries()) {
    await query('INSERT INTO ttrss_feed_categories (owner_uid, title, order_id) VALUES (?, ?, ?)', [
      owner,
      title,
      order,
    ]);
    const [row] = await query('SELECT id FROM ttrss_feed_categories WHERE owner_uid = ? AND title = ?', [
      owner,
      title,
    ]);
    categories.set(title, Number(row?.id));
  }
  const feeds: Record<string, number> = {};
  for (const [order, feed] of TTRSS_FEEDS.entries()) {
    await query(
      `INSERT INTO ttrss_feeds (owner_uid, title, cat_id, feed_url, site_url, order_id, last_updated, last_successful_update)
       VALUES (?, ?, ?, ?, ?, ?, '2026-11-08 17:00:00', '2026-11-08 17:00:00')`,
      [owner, feed.title, feed.category ? categories.get(feed.category) : null, feed.url, feed.site, order],
    );
    const [row] = await query('SELECT id FROM ttrss_feeds WHERE owner_uid = ? AND feed_url = ?', [
      owner,
      feed.url,
    ]);
    feeds[feed.title] = Number(row?.id);
  }
  const labels = new Map<string, number>();
  for (const label of TTRSS_LABELS) {
    await query('INSERT INTO ttrss_labels2 (owner_uid, caption, fg_color, bg_color) VALUES (?, ?, ?, ?)', [
      owner,
      label.caption,
      label.fg,
      label.bg,
    ]);
    const [row] = await query('SELECT id FROM ttrss_labels2 WHERE owner_uid = ? AND caption = ?', [
      owner,
      label.caption,
    ]);
    labels.set(label.caption, Number(row?.id));
  }
  for (const [index, item] of TTRSS_ARTICLES.entries()) {
    const feed = TTRSS_FEEDS.find((candidate) => candidate.title === item.feed)!;
    const link = `${feed.site}${index + 1}`;
    const updated = sqlDate(item.updated);
    await query(
      `INSERT INTO ttrss_entries (title, guid, link, updated, content, content_hash, date_entered, date_updated, author, lang)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'en')`,
      [
        item.title,
        `bed:${owner}:${link}`,
        link,
        updated,
        item.content,
        `SHA1:${createHash('sha1').update(item.content).digest('hex')}`,
        updated,
        updated,
        item.author,
      ],
    );
    const [entry] = await query('SELECT id FROM ttrss_entries WHERE link = ?', [link]);
    const id = Number(entry?.id);
    await query(
      `INSERT INTO ttrss_user_entries (ref_id, uuid, feed_id, owner_uid, marked, tag_cache, label_cache, unread, last_read)
       VALUES (?, '', ?, ?, ?, '', '', ?, ?)`,
      [id, feeds[item.feed], owner, item.starred, item.unread, item.unread ? null : updated],
    );
    for (const caption of item.labels)
      await query('INSERT INTO ttrss_user_labels2 (label_id, article_id) VALUES (?, ?)', [
        labels.get(caption),
        id,
      ]);
  }
  return { users, feeds };
}

export function ttrssState(query: Query): TtrssState {
  const owner = "(SELECT id FROM ttrss_users WHERE login = 'admin')";
  const feeds = async (where = '', params: unknown[] = []) =>
    (
      await query(
        `SELECT f.id, f.title, c.title AS category, f.feed_url AS url,
                (SELECT COUNT(*) FROM ttrss_user_entries ue WHERE ue.feed_id = f.id AND ue.unread = 1) AS unread
           FROM ttrss_feeds f LEFT JOIN ttrss_feed_categories c ON c.id = f.cat_id
          WHERE f.owner_uid = ${owner} ${where} ORDER BY f.id`,
        params,
      )
    ).map((row) => ({
      id: Number(row.id),
      title: String(row.title),
      category: row.category === null ? null : String(row.category),
      url: String(row.url),
      unread: Number(row.unread),
    }));
  return {
    feeds: () => feeds(),
    feedByTitle: async (title) => (await feeds('AND f.title = ?', [title]))[0],
    article: async (title) => {
      const [row] = await query(
        `SELECT e.id, e.title, e.author, f.title AS feed, ue.unread, ue.marked, ue.note
           FROM ttrss_entries e JOIN ttrss_user_entries ue ON ue.ref_id = e.id
           LEFT JOIN ttrss_feeds f ON f.id = ue.feed_id
          WHERE ue.owner_uid = ${owner} AND e.title = ? ORDER BY e.id LIMIT 1`,
        [title],
      );
      if (!row) return undefined;
      const labels = await query(
        `SELECT l.caption FROM ttrss_user_labels2 ul JOIN ttrss_labels2 l ON l.id = ul.label_id
          WHERE ul.article_id = ? ORDER BY l.caption`,
        [row.id],
      );
      return {
        id: Number(row.id),
        title: String(row.title),
        author: String(row.author),
        feed: row.feed === null ? null : String(row.feed),
        unread: Boolean(row.unread),
        starred: Boolean(row.marked),
        labels: labels.map((label) => String(label.caption)),
        note: String(row.note ?? ''),
      };
    },
    labels: async () =>
      (
        await query(
          `SELECT id, caption, fg_color, bg_color FROM ttrss_labels2 WHERE owner_uid = ${owner} ORDER BY id`,
        )
      ).map((row) => ({
        id: Number(row.id),
        caption: String(row.caption),
        fg: String(row.fg_color),
        bg: String(row.bg_color),
      })),
    categories: async () =>
      (await query(`SELECT title FROM ttrss_feed_categories WHERE owner_uid = ${owner} ORDER BY id`)).map(
        (row) => String(row.title),
      ),
  };
}
