<?php
// Seeds the bed's MediaWiki through MediaWiki's own PHP API (users, page edits), not SQL.
// Usage: MW_INSTALL_PATH=/usr/share/mediawiki MW_CONFIG_FILE=... php seed.php < seed.json

require_once getenv('MW_INSTALL_PATH') . '/maintenance/Maintenance.php';

use MediaWiki\MediaWikiServices;
use MediaWiki\Revision\SlotRecord;

class SeedBed extends Maintenance {
    public function execute() {
        $seed = json_decode(stream_get_contents(STDIN), true);
        $services = MediaWikiServices::getInstance();
        foreach ($seed['users'] as $account) {
            $user = User::newFromName($account['user']);
            $status = $services->getAuthManager()->autoCreateUser($user, MediaWiki\Auth\AuthManager::AUTOCREATE_SOURCE_MAINT, false);
            if (!$status->isGood()) $this->fatalError("user {$account['user']}: " . $status->getWikiText());
            $result = $user->changeAuthenticationData(['username' => $account['user'],
                'password' => $account['password'], 'retype' => $account['password']]);
            if (!$result->isGood()) $this->fatalError("password of {$account['user']}: " . $result->getWikiText());
        }
        $admin = User::newFromName($seed['admin']);
        $pages = [];
        foreach ($seed['pages'] as $page) {
            $title = Title::newFromText($page['title']);
            $wikiPage = $services->getWikiPageFactory()->newFromTitle($title);
            $updater = $wikiPage->newPageUpdater($admin);
            $updater->setContent(SlotRecord::MAIN, ContentHandler::makeContent($page['text'], $title));
            $updater->saveRevision(CommentStoreComment::newUnsavedComment('Seeded by the Lift test bed'));
            if (!$updater->getStatus()->isOK()) {
                $this->fatalError("page {$page['title']}: " . $updater->getStatus()->getWikiText());
            }
            $pages[$page['title']] = $title->getArticleID(Title::READ_LATEST);
        }
        // Links, categories and search index are written by jobs; the seed must not leave any behind.
        $services->getJobRunner()->run(['maxJobs' => 1000, 'maxTime' => 60]);
        echo json_encode(['pages' => $pages]), "\n";
    }
}

$maintClass = SeedBed::class;
require_once RUN_MAINTENANCE_IF_MAIN;
