<?php
// Seeds the bed's WordPress through WordPress's own PHP API, never through SQL.
// Usage: php seed.php CODE_DIR install|content < seed.json ; prints what it made as JSON.
// Two runs, because WP_INSTALLING changes how options load and must not be on for content.

$code = $argv[1];
$phase = $argv[2];
$seed = json_decode(stream_get_contents(STDIN), true);
$url = parse_url($seed['url']);
$_SERVER['HTTP_HOST'] = $url['host'] . ':' . $url['port'];
$_SERVER['SERVER_NAME'] = $url['host'];
$_SERVER['REQUEST_URI'] = '/';

if ($phase === 'install') {
    define('WP_INSTALLING', true);
    require $code . '/wp-load.php';
    require_once ABSPATH . 'wp-admin/includes/upgrade.php';
    $admin = $seed['admin'];
    $result = wp_install($seed['site']['title'], $admin['login'], $admin['email'], false, '', $admin['password']);
    update_option('blogdescription', $seed['site']['tagline']);
    update_option('timezone_string', 'UTC');
    update_option('permalink_structure', '');
    // Avatars come from gravatar.com: the request guard stops them, and replay (today) fails
    // a run on any stopped request. The bed has no network anyway.
    update_option('show_avatars', 0);
    echo json_encode(['admin' => $result['user_id']]), "\n";
    exit(0);
}

require $code . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/user.php';

function fail_on_error($value, $what) {
    if (is_wp_error($value)) {
        fwrite(STDERR, "$what: " . $value->get_error_message() . "\n");
        exit(1);
    }
    return $value;
}

$users = ['admin' => get_user_by('login', $seed['admin']['login'])->ID];
foreach ($seed['users'] as $user) {
    $users[$user['login']] = fail_on_error(wp_insert_user([
        'user_login' => $user['login'],
        'user_pass' => $user['password'],
        'user_email' => $user['email'],
        'first_name' => $user['firstName'],
        'last_name' => $user['lastName'],
        'display_name' => $user['firstName'] . ' ' . $user['lastName'],
        'role' => $user['role'],
    ]), 'user ' . $user['login']);
}

$categories = [];
foreach ($seed['categories'] as $category) {
    $term = fail_on_error(wp_insert_term($category['name'], 'category', [
        'slug' => $category['slug'],
        'description' => $category['description'],
    ]), 'category ' . $category['name']);
    $categories[$category['name']] = $term['term_id'];
}

$posts = [];
$day = 1;
foreach ($seed['posts'] as $post) {
    $blocks = array_map(
        fn ($text) => "<!-- wp:paragraph -->\n<p>" . esc_html($text) . "</p>\n<!-- /wp:paragraph -->",
        $post['paragraphs']
    );
    $posts[$post['title']] = fail_on_error(wp_insert_post([
        'post_title' => $post['title'],
        'post_content' => implode("\n\n", $blocks),
        'post_status' => $post['status'],
        'post_author' => $users[$post['author']],
        'post_category' => array_map(fn ($name) => $categories[$name], $post['categories']),
        'post_date' => sprintf('2026-11-%02d 09:00:00', $day++),
    ], true), 'post ' . $post['title']);
}

// The state readers call the REST API with an application password, as an integration would.
[$applicationPassword] = WP_Application_Passwords::create_new_application_password(
    $users['admin'],
    ['name' => 'lift-bed-reader']
);

echo json_encode([
    'users' => $users,
    'categories' => $categories,
    'posts' => $posts,
    'applicationPassword' => $applicationPassword,
]), "\n";
