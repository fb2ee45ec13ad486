<?php
// The bed's notes page: a small PHP app whose note body is edited in Debian's CKEditor 4
// (the classic editor, in its own iframe). Configured by the environment the bed starts it with.
declare(strict_types=1);

session_name('notes_session');
session_start();

function db(): PDO {
    static $pdo = null;
    if ($pdo === null) {
        $pdo = new PDO(
            sprintf('mysql:host=127.0.0.1;port=%s;dbname=%s;charset=utf8mb4', getenv('NOTES_DB_PORT'), getenv('NOTES_DB_NAME')),
            getenv('NOTES_DB_USER'),
            getenv('NOTES_DB_PASSWORD'),
            [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION, PDO::ATTR_DEFAULT_FETCH_MODE => PDO::FETCH_ASSOC],
        );
    }
    return $pdo;
}

function h(?string $text): string {
    return htmlspecialchars($text ?? '', ENT_QUOTES, 'UTF-8');
}

function signed_in_user(): array {
    if (!isset($_SESSION['user'])) {
        header('Location: login.php?next=' . rawurlencode($_SERVER['REQUEST_URI']));
        exit;
    }
    return $_SESSION['user'];
}

function flash(?string $message = null): ?string {
    if ($message !== null) {
        $_SESSION['flash'] = $message;
        return null;
    }
    $shown = $_SESSION['flash'] ?? null;
    unset($_SESSION['flash']);
    return $shown;
}

function page_start(string $title, ?array $user): void {
    $flash = flash();
    echo '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>' . h($title) . ' - Northwind Notes</title>';
    echo '<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px}.flash{background:#dfd;padding:6px}nav a{margin-right:1em}</style></head><body>';
    echo '<nav aria-label="Site">';
    if ($user) {
        echo '<a href="index.php">Notes</a><a href="edit.php">New note</a>';
        echo '<span>Signed in as ' . h($user['name']) . '</span> <a href="logout.php">Sign out</a>';
    }
    echo '</nav>';
    if ($flash !== null) echo '<p class="flash" role="status">' . h($flash) . '</p>';
    echo '<main>';
}

function page_end(): void {
    echo '</main></body></html>';
}

function not_found(string $message, array $user): void {
    http_response_code(404);
    page_start('Not found', $user);
    echo '<h1>Not found</h1><p>' . h($message) . '</p><p><a href="index.php">Back to the notes</a></p>';
    page_end();
    exit;
}

function note(int $id): ?array {
    $statement = db()->prepare('SELECT id, title, body, author, updated_at FROM notes WHERE id = ?');
    $statement->execute([$id]);
    $row = $statement->fetch();
    return $row === false ? null : $row;
}
