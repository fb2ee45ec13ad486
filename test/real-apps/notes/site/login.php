<?php
declare(strict_types=1);
require __DIR__ . '/lib.php';

$error = null;
if ($_SERVER['REQUEST_METHOD'] === 'POST') {
    $statement = db()->prepare('SELECT login, name, password_hash FROM users WHERE login = ?');
    $statement->execute([$_POST['login'] ?? '']);
    $user = $statement->fetch();
    if ($user && password_verify($_POST['password'] ?? '', $user['password_hash'])) {
        session_regenerate_id(true);
        $_SESSION['user'] = ['login' => $user['login'], 'name' => $user['name']];
        $next = $_POST['next'] ?? '';
        header('Location: ' . (preg_match('#^/[^/]#', $next) ? $next : 'index.php'));
        exit;
    }
    $error = 'Wrong username or password.';
}
page_start('Sign in', null);
echo '<h1>Sign in to Northwind Notes</h1>';
if ($error) echo '<p role="alert">' . h($error) . '</p>';
echo '<form method="post" action="login.php">';
echo '<input type="hidden" name="next" value="' . h($_GET['next'] ?? $_POST['next'] ?? '') . '">';
echo '<p><label for="login">Username</label> <input id="login" name="login" autocomplete="username"></p>';
echo '<p><label for="password">Password</label> <input id="password" name="password" type="password" autocomplete="current-password"></p>';
echo '<p><button type="submit">Sign in</button></p></form>';
page_end();
