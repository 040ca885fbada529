import Foundation
@testable import KioskHTML
import KioskTesting
import Testing
@testable import KioskCore

/// Feed autodiscovery over real-looking pages: what a person pastes instead of a feed address.
@Suite struct FeedDiscoveryTests {
    // MARK: - Helpers

    static let page = "https://example.com/blog/2024/05/hello-world/"

    func discover(_ html: String, page: String = FeedDiscoveryTests.page, charsetHint: String? = nil) -> [FeedCandidate] {
        FeedDiscovery.candidates(inHTML: Array(html.utf8), pageURL: page, charsetHint: charsetHint)
    }

    func urls(_ html: String, page: String = FeedDiscoveryTests.page) -> [String] {
        discover(html, page: page).map(\.url)
    }

    /// A minimal page with `head` and `body` markup.
    func page(head: String = "", body: String = "") -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>Hello world</title>
        \(head)
        </head><body>
        \(body)
        </body></html>
        """
    }

    // MARK: - Real pages

    /// A WordPress 6 post: the site and comment feeds, and the alternates that are no feeds
    /// (oEmbed in JSON and XML, the REST API's JSON record of the post).
    static let wordPressPost = """
        <!DOCTYPE html>
        <html lang="en-US">
        <head>
        <meta charset="UTF-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Hello world! &#8211; Example Blog</title>
        <link rel='dns-prefetch' href='//fonts.googleapis.com' />
        <link rel="alternate" type="application/rss+xml" title="Example Blog &raquo; Feed" href="https://example.com/feed/" />
        <link rel="alternate" type="application/rss+xml" title="Example Blog &raquo; Comments Feed" href="https://example.com/comments/feed/" />
        <link rel="alternate" type="application/rss+xml" title="Example Blog &raquo; Hello world! Comments Feed" href="https://example.com/2024/05/hello-world/feed/" />
        <link rel='stylesheet' id='wp-block-library-css' href='https://example.com/wp-includes/css/dist/block-library/style.min.css?ver=6.5.3' media='all' />
        <link rel="https://api.w.org/" href="https://example.com/wp-json/" />
        <link rel="alternate" title="JSON" type="application/json" href="https://example.com/wp-json/wp/v2/posts/1" />
        <link rel="EditURI" type="application/rsd+xml" title="RSD" href="https://example.com/xmlrpc.php?rsd" />
        <link rel="canonical" href="https://example.com/2024/05/hello-world/" />
        <link rel='shortlink' href='https://example.com/?p=1' />
        <link rel="alternate" type="application/json+oembed" href="https://example.com/wp-json/oembed/1.0/embed?url=https%3A%2F%2Fexample.com%2F2024%2F05%2Fhello-world%2F" />
        <link rel="alternate" type="text/xml+oembed" href="https://example.com/wp-json/oembed/1.0/embed?url=https%3A%2F%2Fexample.com%2F2024%2F05%2Fhello-world%2F&#038;format=xml" />
        </head>
        <body class="post-template-default single single-post">
        <article><h1>Hello world!</h1><p>Welcome to WordPress.</p></article>
        <aside class="widget widget_meta"><h2>Meta</h2><ul>
        <li><a href="https://example.com/wp-login.php">Log in</a></li>
        <li><a href="https://example.com/feed/">Entries feed</a></li>
        <li><a href="https://example.com/comments/feed/">Comments feed</a></li>
        <li><a href="https://wordpress.org/">WordPress.org</a></li>
        </ul></aside>
        </body></html>
        """

    @Test func wordPressPostListsItsThreeFeedsInDocumentOrder() {
        let found = FeedDiscovery.candidates(
            inHTML: Array(Self.wordPressPost.utf8), pageURL: "https://example.com/2024/05/hello-world/")
        #expect(found == [
            FeedCandidate(url: "https://example.com/feed/", title: "Example Blog » Feed", type: "rss", source: .linkElement),
            FeedCandidate(
                url: "https://example.com/comments/feed/", title: "Example Blog » Comments Feed", type: "rss",
                source: .linkElement),
            FeedCandidate(
                url: "https://example.com/2024/05/hello-world/feed/", title: "Example Blog » Hello world! Comments Feed",
                type: "rss", source: .linkElement),
        ])
    }

    @Test func wordPressRESTRecordsAreNoJSONFeeds() {
        let head = """
            <link rel="alternate" type="application/json" href="https://example.com/wp-json/wp/v2/pages/2">
            <link rel="alternate" type="application/json" href="https://example.com/?rest_route=/wp/v2/posts/1">
            <link rel="alternate" type="application/json" title="JSON Feed" href="https://example.com/feed.json">
            """
        #expect(discover(page(head: head)) == [
            FeedCandidate(url: "https://example.com/feed.json", title: "JSON Feed", type: "json", source: .linkElement)
        ])
    }

    /// Blogger declares Atom, then RSS, plus a posting endpoint typed as Atom (not an alternate);
    /// its "Subscribe to" widget links the Atom feed again with a `type` attribute.
    @Test func bloggerAtomAndRSSButNotThePostingService() {
        let html = """
            <!DOCTYPE html>
            <html class='v2' dir='ltr' xmlns='http://www.w3.org/1999/xhtml' xmlns:b='http://www.google.com/2005/gml/b'>
            <head>
            <meta content='text/html; charset=UTF-8' http-equiv='Content-Type'/>
            <link href='https://www.blogger.com/static/v1/widgets/widget_css_bundle.css' rel='stylesheet' type='text/css'/>
            <link rel="alternate" type="application/atom+xml" title="Example Diary - Atom" href="https://diary.blogspot.com/feeds/posts/default" />
            <link rel="alternate" type="application/rss+xml" title="Example Diary - RSS" href="https://diary.blogspot.com/feeds/posts/default?alt=rss" />
            <link rel="service.post" type="application/atom+xml" title="Example Diary - Atom" href="https://www.blogger.com/feeds/1234567890/posts/default" />
            <link rel="me" href="https://www.blogger.com/profile/0987654321" />
            </head>
            <body>
            <div class='widget Subscribe' id='Subscribe1'>
            <a class='feed-link' href='https://diary.blogspot.com/feeds/posts/default' target='_blank' type='application/atom+xml'>Posts</a>
            <a class='feed-link' href='https://diary.blogspot.com/feeds/comments/default' target='_blank' type='application/atom+xml'>All Comments</a>
            </div>
            </body></html>
            """
        #expect(discover(html, page: "https://diary.blogspot.com/") == [
            FeedCandidate(
                url: "https://diary.blogspot.com/feeds/posts/default", title: "Example Diary - Atom", type: "atom",
                source: .linkElement),
            FeedCandidate(
                url: "https://diary.blogspot.com/feeds/posts/default?alt=rss", title: "Example Diary - RSS", type: "rss",
                source: .linkElement),
            FeedCandidate(
                url: "https://diary.blogspot.com/feeds/comments/default", title: "All Comments", type: "atom",
                source: .anchor),
        ])
    }

    @Test func ghostSiteRSS() {
        let html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
                <meta charset="utf-8">
                <title>Field Notes</title>
                <link rel="icon" href="https://notes.example.org/favicon.png" type="image/png">
                <link rel="canonical" href="https://notes.example.org/">
                <meta name="referrer" content="no-referrer-when-downgrade">
                <meta property="og:site_name" content="Field Notes">
                <script type="application/ld+json">{"@context": "https://schema.org", "@type": "WebSite"}</script>
                <meta name="generator" content="Ghost 5.82">
                <link rel="alternate" type="application/rss+xml" title="Field Notes" href="https://notes.example.org/rss/">
                <script defer src="https://cdn.jsdelivr.net/ghost/portal@~2.37/umd/portal.min.js" data-ghost="https://notes.example.org/" crossorigin="anonymous"></script>
            </head>
            <body class="home-template"><a class="gh-head-logo" href="https://notes.example.org">Field Notes</a></body>
            </html>
            """
        #expect(discover(html, page: "https://notes.example.org/") == [
            FeedCandidate(url: "https://notes.example.org/rss/", title: "Field Notes", type: "rss", source: .linkElement)
        ])
    }

    /// jekyll-feed writes a relative Atom link (and Minima a footer link to the same feed).
    @Test func jekyllRelativeAtomLink() {
        let html = """
            <!DOCTYPE html>
            <html lang="en"><head>
              <meta charset="utf-8">
              <!-- Begin Jekyll SEO tag v2.8.0 -->
              <title>Notes on things | Jane’s site</title>
              <link rel="canonical" href="https://jane.example.net/" />
              <!-- End Jekyll SEO tag -->
              <link rel="stylesheet" href="/assets/main.css">
              <link type="application/atom+xml" rel="alternate" href="/feed.xml" title="Jane&#39;s site" />
            </head>
            <body><footer class="site-footer h-card">
              <p class="feed-subscribe"><a href="/feed.xml"><svg class="svg-icon orange"><use xlink:href="/assets/minima-social-icons.svg#rss"></use></svg><span>Subscribe</span></a></p>
            </footer></body></html>
            """
        #expect(discover(html, page: "https://jane.example.net/2024/01/02/notes.html") == [
            FeedCandidate(url: "https://jane.example.net/feed.xml", title: "Jane's site", type: "atom", source: .linkElement)
        ])
    }

    @Test func mediumProfileFeed() {
        let html = """
            <!doctype html><html lang="en"><head><title>Ana Writer – Medium</title>
            <meta data-rh="true" charset="utf-8"/><meta data-rh="true" name="viewport" content="width=device-width,minimum-scale=1,initial-scale=1,maximum-scale=1"/>
            <link data-rh="true" rel="icon" href="https://miro.medium.com/v2/1*m-R_BkNf1Qjr1YbyOIJY2w.png"/>
            <link data-rh="true" id="glyph_link" rel="stylesheet" type="text/css" href="https://glyph.medium.com/css/unbound.css"/>
            <link data-rh="true" rel="author" href="https://medium.com/@anawriter"/>
            <link data-rh="true" rel="canonical" href="https://medium.com/@anawriter"/>
            <link data-rh="true" rel="alternate" href="android-app://com.medium.reader/https/medium.com/@anawriter"/>
            <link data-rh="true" rel="alternate" type="application/rss+xml" title="RSS" href="https://medium.com/feed/@anawriter"/>
            </head><body><div id="root"></div></body></html>
            """
        #expect(discover(html, page: "https://medium.com/@anawriter") == [
            FeedCandidate(url: "https://medium.com/feed/@anawriter", title: "RSS", type: "rss", source: .linkElement)
        ])
    }

    /// A YouTube channel page: the channel's feed among mobile, app and oEmbed alternates.
    @Test func youTubeChannelVideosFeed() {
        let html = """
            <!DOCTYPE html><html style="font-size: 10px;font-family: Roboto, Arial, sans-serif;" lang="en" system-icons typography typography-spacing><head><script nonce="Xh1">var ytcfg={d:function(){return window.yt&&yt.config_||ytcfg.data_||(ytcfg.data_={})}};</script>
            <title>Example Channel - YouTube</title>
            <link rel="canonical" href="https://www.youtube.com/channel/UCabcdefghijklmnopqrstuv">
            <link rel="alternate" media="handheld" href="https://m.youtube.com/channel/UCabcdefghijklmnopqrstuv">
            <link rel="alternate" media="only screen and (max-width: 640px)" href="https://m.youtube.com/channel/UCabcdefghijklmnopqrstuv">
            <link rel="alternate" href="android-app://com.google.android.youtube/http/www.youtube.com/channel/UCabcdefghijklmnopqrstuv">
            <link rel="alternate" href="ios-app://544007664/vnd.youtube/www.youtube.com/channel/UCabcdefghijklmnopqrstuv">
            <link rel="alternate" type="application/rss+xml" title="RSS" href="https://www.youtube.com/feeds/videos.xml?channel_id=UCabcdefghijklmnopqrstuv">
            <link rel="alternate" type="application/json+oembed" href="https://www.youtube.com/oembed?format=json&amp;url=https%3A%2F%2Fwww.youtube.com%2Fchannel%2FUCabcdefghijklmnopqrstuv" title="Example Channel">
            <link rel="alternate" type="text/xml+oembed" href="https://www.youtube.com/oembed?format=xml&amp;url=https%3A%2F%2Fwww.youtube.com%2Fchannel%2FUCabcdefghijklmnopqrstuv" title="Example Channel">
            </head><body><ytd-app></ytd-app></body></html>
            """
        #expect(discover(html, page: "https://www.youtube.com/@example") == [
            FeedCandidate(
                url: "https://www.youtube.com/feeds/videos.xml?channel_id=UCabcdefghijklmnopqrstuv", title: "RSS",
                type: "rss", source: .linkElement)
        ])
    }

    @Test func youTubeFeedLinkedFromAnAnchorIsFoundByItsPath() {
        let body = #"<a href="/feeds/videos.xml?channel_id=UCabcdefghijklmnopqrstuv">Subscribe</a>"#
        #expect(discover(page(body: body), page: "https://www.youtube.com/@example") == [
            FeedCandidate(
                url: "https://www.youtube.com/feeds/videos.xml?channel_id=UCabcdefghijklmnopqrstuv", title: "Subscribe",
                source: .anchor)
        ])
    }

    // MARK: - <link rel="alternate">

    @Test func severalAlternatesComeInDocumentOrderWithTheirKinds() {
        let head = """
            <link rel="alternate" type="application/atom+xml" title="Atom" href="/atom.xml">
            <link rel="alternate" type="application/rss+xml" title="RSS" href="/rss.xml">
            <link rel="alternate" type="application/feed+json" title="JSON Feed" href="/feed.json">
            <link rel="alternate" type="application/rss+xml" title="Comments" href="/comments/feed/">
            <link rel="alternate" type="application/rdf+xml" title="RSS 1.0" href="/index.rdf">
            <link rel="alternate" type="text/xml" title="Old RSS" href="/rss.php">
            <link rel="alternate" type="application/xml" title="XML" href="/export.php">
            <link rel="alternate" type="application/json" title="JSON" href="/feed/json">
            """
        let found = discover(page(head: head))
        #expect(found.map(\.url) == [
            "https://example.com/atom.xml", "https://example.com/rss.xml", "https://example.com/feed.json",
            "https://example.com/comments/feed/", "https://example.com/index.rdf", "https://example.com/rss.php",
            "https://example.com/export.php", "https://example.com/feed/json",
        ])
        #expect(found.map(\.type) == ["atom", "rss", "json", "rss", "rss", nil, nil, "json"])
        #expect(found.map(\.title) == ["Atom", "RSS", "JSON Feed", "Comments", "RSS 1.0", "Old RSS", "XML", "JSON"])
        #expect(found.allSatisfy { $0.source == .linkElement })
    }

    @Test func typelessAlternateIsAFeedOfUnknownKind() {
        #expect(discover(page(head: #"<link rel="alternate" href="/index.php?type=feed" title="News">"#)) == [
            FeedCandidate(url: "https://example.com/index.php?type=feed", title: "News", type: nil, source: .linkElement)
        ])
    }

    @Test func translationsAndMobileVersionsAreNoFeeds() {
        let head = """
            <link rel="alternate" hreflang="fr" href="https://example.com/fr/">
            <link rel="alternate" hreflang="x-default" href="https://example.com/">
            <link rel="alternate" hreflang="de" type="text/html" href="https://example.com/de/">
            <link rel="alternate" media="only screen and (max-width: 640px)" href="https://m.example.com/">
            <link rel="alternate" hreflang="de" type="application/rss+xml" href="https://example.com/de/feed/">
            """
        #expect(urls(page(head: head)) == ["https://example.com/de/feed/"])
    }

    @Test func stylesheetsAndOtherTypesAreNoFeeds() {
        let head = """
            <link rel="alternate stylesheet" type="text/css" title="High contrast" href="/contrast.css">
            <link rel="alternate stylesheet" href="/contrast2.css">
            <link rel="stylesheet alternate" type="application/rss+xml" href="/weird.rss">
            <link rel="alternate" type="text/html" href="/print/">
            <link rel="alternate" type="application/activity+json" href="/users/jane">
            <link rel="alternate" type="application/json+oembed" href="/oembed?format=json">
            <link rel="alternate" type="application/pdf" href="/post.pdf">
            <link rel="stylesheet" href="/main.css">
            <link rel="feed" type="text/html" href="/">
            <link rel="search" type="application/opensearchdescription+xml" href="/opensearch.xml">
            <link rel="alternate" type="application/rss+xml">
            """
        #expect(discover(page(head: head)).isEmpty)
    }

    @Test func relIsATokenListInAnyCaseAndTypeIgnoresCaseAndParameters() {
        let head = """
            <LINK REL="Alternate" TYPE="Application/RSS+XML" HREF="/one.xml">
            <link rel="home alternate" type="application/atom+xml; charset=utf-8" href="/two.xml">
            <link rel=" ALTERNATE
              " type=" application/rss+xml " href="/three.xml">
            <link rel=alternate type=application/rss+xml href=/four.xml>
            """
        let found = discover(page(head: head))
        #expect(found.map(\.url) == [
            "https://example.com/one.xml", "https://example.com/two.xml", "https://example.com/three.xml",
            "https://example.com/four.xml",
        ])
        #expect(found.map(\.type) == ["rss", "atom", "rss", "rss"])
    }

    @Test func linkElementsInTheBodyCount() {
        let body = """
            <main><p>Posts</p>
            <link rel="alternate" type="application/rss+xml" title="Posts" href="/posts.rss">
            </main>
            """
        #expect(discover(page(body: body)) == [
            FeedCandidate(url: "https://example.com/posts.rss", title: "Posts", type: "rss", source: .linkElement)
        ])
    }

    @Test func titlesAreDecodedCollapsedAndTrimmed() {
        let head = """
            <link rel="alternate" type="application/rss+xml" href="/a.xml" title="  Ben &amp; Jerry&#8217;s &raquo;
                 Flavours&nbsp;Feed ">
            <link rel="alternate" type="application/rss+xml" href="/b.xml" title="   ">
            <link rel="alternate" type="application/rss+xml" href="/c.xml" title="">
            <link rel="alternate" type="application/rss+xml" href="/d.xml">
            <link rel="alternate" type="application/rss+xml" href="/e.xml" title="&lt;b&gt;Bold&lt;/b&gt; &copy 2024">
            """
        #expect(discover(page(head: head)).map(\.title) == ["Ben & Jerry’s » Flavours Feed", nil, nil, nil, "<b>Bold</b> © 2024"])
    }

    @Test func veryLongTitlesAreCutOnACharacter() throws {
        let long = String(repeating: "é", count: 2000)
        let found = discover(page(head: #"<link rel="alternate" type="application/rss+xml" href="/a.xml" title="\#(long)">"#))
        let title = try #require(found.first?.title)
        #expect(title.utf8.count <= FeedDiscovery.maximumTitleBytes)
        #expect(title.count > 200 && title.allSatisfy { $0 == "é" })
    }

    @Test func linksInCommentsScriptsAndTemplatesTextAreIgnored() {
        let head = """
            <!-- <link rel="alternate" type="application/rss+xml" href="/commented.xml"> -->
            <script>document.write('<link rel="alternate" type="application/rss+xml" href="/scripted.xml">');</script>
            <noscript><link rel="alternate" type="application/rss+xml" href="/noscript.xml"></noscript>
            <title><link rel="alternate" type="application/rss+xml" href="/title.xml"></title>
            <link rel="alternate" type="application/rss+xml" href="/real.xml">
            """
        #expect(urls(page(head: head)) == ["https://example.com/real.xml"])
    }

    // MARK: - Addresses

    @Test func relativeHrefsResolveAgainstThePage() {
        let head = """
            <link rel="alternate" type="application/rss+xml" href="feed.xml">
            <link rel="alternate" type="application/rss+xml" href="../../rss.xml">
            <link rel="alternate" type="application/rss+xml" href="/atom.xml">
            <link rel="alternate" type="application/rss+xml" href="//cdn.example.net/feeds/main.xml">
            <link rel="alternate" type="application/rss+xml" href="?feed=rss2">
            <link rel="alternate" type="application/rss+xml" href="  /spaced.xml\n">
            <link rel="alternate" type="application/rss+xml" href="/news/
            feed.xml">
            """
        #expect(urls(page(head: head)) == [
            "https://example.com/blog/2024/05/hello-world/feed.xml",
            "https://example.com/blog/2024/rss.xml",
            "https://example.com/atom.xml",
            "https://cdn.example.net/feeds/main.xml",
            "https://example.com/blog/2024/05/hello-world/?feed=rss2",
            "https://example.com/spaced.xml",
            "https://example.com/news/feed.xml",
        ])
    }

    @Test func relativeHrefsResolveAgainstTheFirstBaseWhereverItStands() {
        let head = """
            <link rel="alternate" type="application/rss+xml" href="before.xml">
            <base href="/en/">
            <base href="https://elsewhere.example.org/">
            <link rel="alternate" type="application/rss+xml" href="after.xml">
            <link rel="alternate" type="application/rss+xml" href="https://example.com/absolute.xml">
            """
        let body = #"<a href="news/rss">RSS</a>"#
        #expect(urls(page(head: head, body: body)) == [
            "https://example.com/en/before.xml", "https://example.com/en/after.xml",
            "https://example.com/absolute.xml", "https://example.com/en/news/rss",
        ])
    }

    @Test func baseOnAnotherHostAndUnusableBasesAreHandled() {
        let onCDN = page(head: #"<base href="https://static.example.org/site/"><link rel="alternate" href="feed.atom">"#)
        #expect(urls(onCDN) == ["https://static.example.org/site/feed.atom"])
        // A base without href does not count; a `javascript:` base is no base.
        let unusable = page(head: #"<base target="_blank"><base href="javascript:alert(1)"><link rel="alternate" href="feed.atom">"#)
        #expect(urls(unusable) == ["https://example.com/blog/2024/05/hello-world/feed.atom"])
    }

    @Test func feedSchemeBecomesHTTP() {
        let head = """
            <link rel="alternate" type="application/rss+xml" href="feed://example.com/rss.xml">
            <link rel="alternate" type="application/rss+xml" href="feed:https://example.com/atom.xml">
            <link rel="alternate" type="application/rss+xml" href="FEED:HTTP://example.com/upper.xml">
            <link rel="alternate" type="application/rss+xml" href="feed:javascript:alert(1)">
            <link rel="alternate" type="application/rss+xml" href="feed:">
            """
        let body = #"<a href="feed://example.com/podcast.rss">Podcast</a>"#
        #expect(urls(page(head: head, body: body)) == [
            "http://example.com/rss.xml", "https://example.com/atom.xml", "http://example.com/upper.xml",
            "http://example.com/podcast.rss",
        ])
    }

    @Test func onlyHTTPAndHTTPSAddressesAreKept() {
        let head = """
            <link rel="alternate" type="application/rss+xml" href="javascript:alert('feed')">
            <link rel="alternate" type="application/rss+xml" href="  JavaScript:alert(1)">
            <link rel="alternate" type="application/rss+xml" href="java\tscript:alert(1)">
            <link rel="alternate" type="application/rss+xml" href="data:application/rss+xml;base64,PHJzcz48L3Jzcz4=">
            <link rel="alternate" type="application/rss+xml" href="mailto:feeds@example.com">
            <link rel="alternate" type="application/rss+xml" href="ftp://example.com/feed.xml">
            <link rel="alternate" type="application/rss+xml" href="file:///etc/passwd">
            <link rel="alternate" type="application/rss+xml" href="http:feed.xml">
            <link rel="alternate" type="application/rss+xml" href="https://">
            <link rel="alternate" type="application/rss+xml" href="HTTPS://EXAMPLE.COM/Feed.xml">
            """
        let body = """
            <a href="javascript:void(0)">RSS</a>
            <a href="data:text/html,<b>rss</b>">Feed</a>
            <a href="mailto:me@example.com?subject=feed.xml">Atom</a>
            <a href="tel:+15551234567">RSS</a>
            """
        #expect(urls(page(head: head, body: body)) == ["https://example.com/Feed.xml"])
    }

    @Test func duplicatesAreRemovedFirstWins() {
        let head = """
            <link rel="alternate" type="application/rss+xml" title="First" href="https://example.com/feed/">
            <link rel="alternate" type="application/atom+xml" title="Second" href="/feed/">
            <link rel="alternate" type="application/rss+xml" title="Third" href="https://EXAMPLE.com/feed/#latest">
            <link rel="alternate" type="application/rss+xml" title="Fourth" href="HTTPS://example.com/feed/">
            <link rel="alternate" type="application/rss+xml" title="Other" href="https://example.com/feed/?lang=fr">
            """
        let body = #"<a href="/feed/">RSS</a> <a href="/comments/feed/">Comments</a> <a href="/comments/feed/">again</a>"#
        #expect(discover(page(head: head, body: body)) == [
            FeedCandidate(url: "https://example.com/feed/", title: "First", type: "rss", source: .linkElement),
            FeedCandidate(url: "https://example.com/feed/?lang=fr", title: "Other", type: "rss", source: .linkElement),
            FeedCandidate(url: "https://example.com/comments/feed/", title: "Comments", source: .anchor),
        ])
    }

    @Test func fragmentsAreRemoved() {
        let body = #"<a href="/feed.xml#top">RSS</a>"#
        #expect(urls(page(head: #"<link rel="alternate" href="/atom.xml#entries">"#, body: body)) == [
            "https://example.com/atom.xml", "https://example.com/feed.xml",
        ])
    }

    @Test func thePageItselfIsNoCandidate() {
        let head = #"<link rel="alternate" type="application/rss+xml" href="">"#
        let body = ##"<a href="#">RSS</a> <a href="">Feed</a> <a href="/blog/2024/05/hello-world/#comments">Atom</a>"##
        #expect(discover(page(head: head, body: body)).isEmpty)
    }

    @Test func unusualCharactersInAddressesArePercentEncoded() {
        let head = #"<link rel="alternate" type="application/rss+xml" href="/catégorie/actualités/feed/">"#
        #expect(urls(page(head: head)) == ["https://example.com/cat%C3%A9gorie/actualit%C3%A9s/feed/"])
    }

    // MARK: - <a href>

    @Test func anchorsComeAfterLinkElements() {
        let body = """
            <p><a href="/posts.rss">RSS</a></p>
            <link rel="alternate" type="application/atom+xml" href="/posts.atom">
            """
        #expect(discover(page(body: body)) == [
            FeedCandidate(url: "https://example.com/posts.atom", type: "atom", source: .linkElement),
            FeedCandidate(url: "https://example.com/posts.rss", title: "RSS", type: "rss", source: .anchor),
        ])
    }

    @Test(arguments: [
        ("/feed.rss", "rss"), ("/index.rdf", "rss"), ("/posts.atom", "atom"), ("/feed.xml", nil),
        ("/FEED.XML", nil), ("/blog/feed", nil), ("/feed/", nil), ("/rss", "rss"), ("/feed/atom/", "atom"),
        ("/category/news/feed/", nil), ("/rss/latest-news", nil), ("/?feed=rss2", "rss"), ("/index.php?feed=atom", "atom"),
        ("/blog?format=rss", "rss"), ("/feeds/videos.xml?channel_id=UC123", nil),
        ("https://feeds.feedburner.com/ExampleBlog", nil), ("/podcast/episodes.rss?page=2", "rss"),
    ] as [(String, String?)])
    func anchorsWhoseAddressLooksLikeAFeed(href: String, type: String?) {
        let found = discover(page(body: #"<a href="\#(href)">Subscribe</a>"#))
        #expect(found.count == 1)
        #expect(found.first?.type == type)
        #expect(found.first?.source == .anchor)
        #expect(found.first?.title == "Subscribe")
    }

    @Test(arguments: [
        "/sitemap.xml", "/sitemap_index.xml", "/post-sitemap.xml", "/feedback", "/rss-reader-review.html",
        "/atom-heart-mother.html", "/feeds-and-speeds", "/about", "/rss.html", "/news?feed=yes", "/feedly",
        "https://feeds.feedburner.com/~ff/ExampleBlog?a=abc", "https://twitter.com/example",
    ])
    func anchorsThatAreNoFeeds(href: String) {
        #expect(discover(page(body: #"<a href="\#(href)">Read more</a>"#)).isEmpty)
    }

    @Test func anchorsNamedRSSAtomOrFeedAreFeeds() {
        let body = """
            <a href="/subscribe">RSS</a>
            <a href="/syndication">  atom </a>
            <a href="/x/y">FEED</a>
            <a href="/r"><img src="/img/rss.png" alt="RSS"></a>
            <a href="/s" title="Feed"><svg viewBox="0 0 8 8"><circle cx="2" cy="6" r="1"/></svg></a>
            <a href="/t">R<b>SS</b></a>
            <a href="/no">RSS feeds explained</a>
            <a href="/no2">My feed of thoughts</a>
            """
        let found = discover(page(body: body))
        #expect(found.map(\.url) == [
            "https://example.com/subscribe", "https://example.com/syndication", "https://example.com/x/y",
            "https://example.com/r", "https://example.com/s", "https://example.com/t",
        ])
        #expect(found.map(\.title) == ["RSS", "atom", "FEED", "RSS", "Feed", "RSS"])
        #expect(found.allSatisfy { $0.source == .anchor && $0.type == nil })
    }

    @Test func anchorTitleIsItsTextElseItsTitleAttribute() {
        let body = """
            <a href="/feed.xml" title="ignored"><span class="icon"></span>
               Subscribe &amp; <em>follow</em><br>along</a>
            <a href="/atom.xml" title="Atom feed"><i class="fa fa-rss"></i></a>
            <a href="/rss.xml"></a>
            """
        #expect(discover(page(body: body)).map(\.title) == ["Subscribe & follow along", "Atom feed", nil])
    }

    @Test func anAnchorLeftOpenEndsAtTheNextAnchor() {
        let body = #"<a href="/one.rss">One <a href="/two.rss">Two</a> <a href="/three.rss">Three"#
        #expect(discover(page(body: body)).map(\.title) == ["One", "Two", "Three"])
    }

    @Test func anchorTypeAttributeNamesAFeed() {
        let body = """
            <a href="/export" type="application/rss+xml">Export</a>
            <a href="/data" type="application/json">Data</a>
            <a href="/page" type="text/html">Page</a>
            """
        #expect(discover(page(body: body)) == [
            FeedCandidate(url: "https://example.com/export", title: "Export", type: "rss", source: .anchor)
        ])
    }

    // MARK: - Encodings

    @Test func latin1PageTitleDecodedFromItsMetaCharset() {
        var bytes = Array(#"<html><head><meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"><link rel="alternate" type="application/rss+xml" title="Caf"#.utf8)
        bytes.append(0xE9)  // é in Latin-1
        bytes += Array(#" &eacute;t&#233; " href="/actualit"#.utf8)
        bytes.append(0xE9)
        bytes += Array(#"s.xml"></head><body></body></html>"#.utf8)
        let found = FeedDiscovery.candidates(inHTML: bytes, pageURL: "http://journal.example.fr/")
        #expect(found == [
            FeedCandidate(
                url: "http://journal.example.fr/actualit%C3%A9s.xml", title: "Café été", type: "rss", source: .linkElement)
        ])
    }

    @Test func latin1PageWithOnlyAnHTTPCharset() {
        var bytes = Array(#"<link rel="alternate" type="application/atom+xml" title="Le Caf"#.utf8)
        bytes.append(0xE9)
        bytes += Array(#"" href="/atom">"#.utf8)
        let found = FeedDiscovery.candidates(inHTML: bytes, pageURL: "https://example.fr/", charsetHint: "ISO-8859-1")
        #expect(found.first?.title == "Le Café")
    }

    @Test func cyrillicPageInWindows1251() throws {
        let head = #"<meta charset="windows-1251"><link rel="alternate" type="application/rss+xml" title="Новости" href="/rss">"#
        let bytes = try #require(head.data(using: .windowsCP1251))
        let found = FeedDiscovery.candidates(inHTML: [UInt8](bytes), pageURL: "https://example.ru/")
        #expect(found.first?.title == "Новости")
    }

    @Test func utf16PageWithBOM() throws {
        let html = page(head: #"<link rel="alternate" type="application/rss+xml" title="Ünïcödé" href="/feed">"#)
        let bytes = try #require(html.data(using: .utf16LittleEndian))
        let found = FeedDiscovery.candidates(inHTML: [0xFF, 0xFE] + [UInt8](bytes), pageURL: "https://example.com/")
        #expect(found.map(\.title) == ["Ünïcödé"])
    }

    // MARK: - Bounds and hostile input

    @Test func aTwentyMegabytePageIsReadOnlyAtItsStart() {
        var html = page(head: #"<link rel="alternate" type="application/rss+xml" href="/early.xml">"#)
        let row = #"<p>Another paragraph with <a href="/posts/1234">a link</a> and <b>bold</b> text.</p>\#n"#
        html.reserveCapacity(21_000_000)
        while html.utf8.count < 20_000_000 { html += String(repeating: row, count: 1000) }
        html += #"<link rel="alternate" type="application/rss+xml" href="/late.xml"><a href="/late.rss">RSS</a>"#
        let bytes = Array(html.utf8)

        let clock = ContinuousClock()
        var found: [FeedCandidate] = []
        let elapsed = clock.measure {
            found = FeedDiscovery.candidates(inHTML: bytes, pageURL: "https://example.com/")
        }
        #expect(found.map(\.url) == ["https://example.com/early.xml"])
        // Reading all 20 MB takes ten times as long; 2 MiB in a debug build takes well under this.
        #expect(elapsed < .seconds(10))
    }

    @Test func theCutAtTheLimitKeepsUTF8Whole() {
        let head = #"<link rel="alternate" type="application/rss+xml" title="Café" href="/feed">"#
        var bytes = Array(page(head: head).utf8)
        // ASCII filler up to one byte before the limit, then é (C3 A9) straddling it.
        bytes += Array(repeating: UInt8(ascii: " "), count: FeedDiscovery.maximumScannedBytes - 1 - bytes.count)
        bytes += [0xC3, 0xA9]
        bytes += Array("more text".utf8)
        let found = FeedDiscovery.candidates(inHTML: bytes, pageURL: "https://example.com/")
        #expect(found.map(\.title) == ["Café"])
    }

    @Test func anUnclosedAnchorWithEndlessTextIsBounded() {
        let body = "<a href=\"/feed.xml\">" + String(repeating: "word ", count: 100_000)
        let found = discover(page(body: body))
        #expect(found.count == 1)
        #expect((found.first?.title?.utf8.count ?? .max) <= FeedDiscovery.maximumTitleBytes)
    }

    @Test func garbageNeverCrashes() {
        var generator = SplitMix64(seed: 0x5EED)
        let fragments = [
            "<link rel=\"alternate\" href=\"", "<a href=", "<base href='", "<!--", "<script>", "</a>", "<a>", "\"",
            "'", ">", "<", "&", "&#x110000;", "&#99999999999999999999;", "feed:", "feed://", "javascript:", "//",
            "?feed=rss2", ".xml", "\u{0}", "\u{FFFD}", "é", "<link rel=alternate type=application/rss+xml href=",
            "</", "<!doctype html>", "<?xml?>", "\r\n", " ", "[", "]", "%", "%zz", "http://[::1", "https://:80",
        ]
        for _ in 0..<300 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(generator.next() % 60) {
                if generator.next() % 3 == 0 {
                    bytes.append(UInt8(truncatingIfNeeded: generator.next()))
                } else {
                    bytes += Array(fragments[Int(generator.next() % UInt64(fragments.count))].utf8)
                }
            }
            for pageURL in ["https://example.com/a/b", "", "not a url", "javascript:alert(1)", "https://"] {
                for candidate in FeedDiscovery.candidates(inHTML: bytes, pageURL: pageURL) {
                    #expect(candidate.url.hasPrefix("http://") || candidate.url.hasPrefix("https://"))
                    #expect(!candidate.url.contains("#"))
                }
            }
            _ = FeedDiscovery.looksLikeHTML(bytes, contentType: nil)
            _ = FeedDiscovery.commonPathCandidates(for: String(decoding: bytes, as: UTF8.self))
        }
    }

    @Test func emptyAndTruncatedPages() {
        #expect(FeedDiscovery.candidates(inHTML: [], pageURL: "https://example.com/").isEmpty)
        #expect(urls(#"<link rel="alternate" type="application/rss+xml" href="/feed.xml""#).isEmpty)
        #expect(urls(#"<a href="/feed.xml">RSS"#) == ["https://example.com/feed.xml"])
    }

    @Test func relativeLinksNeedAnAbsolutePageURL() {
        let head = #"<link rel="alternate" href="/feed.xml"><link rel="alternate" href="https://example.com/abs.xml">"#
        #expect(urls(page(head: head), page: "") == ["https://example.com/abs.xml"])
        #expect(urls(page(head: head), page: "example.com") == ["https://example.com/abs.xml"])
    }

    // MARK: - Common paths

    @Test func commonPathsAreOnThePagesOrigin() {
        let found = FeedDiscovery.commonPathCandidates(for: "https://example.com/blog/post?x=1")
        #expect(found.map(\.url) == [
            "https://example.com/feed", "https://example.com/feed/", "https://example.com/rss.xml",
            "https://example.com/atom.xml", "https://example.com/index.xml", "https://example.com/feed.xml",
            "https://example.com/index.rss",
        ])
        #expect(found.map(\.type) == [nil, nil, "rss", "atom", nil, nil, "rss"])
        #expect(found.allSatisfy { $0.source == .commonPath && $0.title == nil })
    }

    @Test func commonPathsKeepSchemeAndPortButNotUserinfoOrFragment() {
        #expect(FeedDiscovery.commonPathCandidates(for: "http://user:secret@Blog.Example.COM:8080/a/b#c").first?.url
            == "http://blog.example.com:8080/feed")
        #expect(FeedDiscovery.commonPathCandidates(for: "https://[2001:db8::1]/x").first?.url
            == "https://[2001:db8::1]/feed")
        #expect(FeedDiscovery.commonPathCandidates(for: "feed://example.com/").first?.url == "http://example.com/feed")
        #expect(FeedDiscovery.commonPathCandidates(for: "https://example.com").first?.url == "https://example.com/feed")
    }

    @Test(arguments: ["", "example.com", "/blog/post", "ftp://example.com/", "javascript:alert(1)", "https://", "mailto:a@b.c"])
    func commonPathsNeedAnHTTPAddress(siteURL: String) {
        #expect(FeedDiscovery.commonPathCandidates(for: siteURL).isEmpty)
    }

    // MARK: - Page or feed

    @Test(arguments: [
        "<!DOCTYPE html>\n<html><head><title>x</title></head></html>",
        "\u{FEFF}<!doctype html><html>",
        "  \n\t<!-- generated by Hugo -->\n<!DOCTYPE html>",
        "<!-- a --><!-- b --><html lang=\"en\">",
        "<!-->\n<html>",
        "<HTML><HEAD><TITLE>Old</TITLE></HEAD>",
        "<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01//EN\" \"http://www.w3.org/TR/html4/strict.dtd\">",
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Strict//EN\" \"http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd\">\n<html xmlns=\"http://www.w3.org/1999/xhtml\">",
        "<head><meta charset=utf-8>",
        "<body>Hello</body>",
        "<meta http-equiv=\"refresh\" content=\"0; url=/blog/\">",
    ])
    func typicalPagesLookLikeHTML(html: String) {
        #expect(FeedDiscovery.looksLikeHTML(Array(html.utf8), contentType: nil))
        #expect(FeedDiscovery.looksLikeHTML(Array(html.utf8), contentType: "application/rss+xml"))
    }

    @Test func theRealWordPressPageLooksLikeHTML() {
        #expect(FeedDiscovery.looksLikeHTML(Array(Self.wordPressPost.utf8), contentType: "text/html; charset=UTF-8"))
    }

    @Test func utf16PageLooksLikeHTML() throws {
        let bytes = try #require("<!DOCTYPE html><html>".data(using: .utf16BigEndian))
        #expect(FeedDiscovery.looksLikeHTML([0xFE, 0xFF] + [UInt8](bytes), contentType: nil))
    }

    @Test(arguments: [
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\"><channel><title>t</title></channel></rss>",
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<?xml-stylesheet type=\"text/xsl\" href=\"/feed.xsl\"?>\n<rss version=\"2.0\">",
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>t</title></feed>",
        "<?xml version=\"1.0\"?>\n<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\" xmlns=\"http://purl.org/rss/1.0/\">",
        "<?xml version=\"1.0\" encoding=\"ISO-8859-1\" ?>\n<!DOCTYPE rss PUBLIC \"-//Netscape Communications//DTD RSS 0.91//EN\" \"http://my.netscape.com/publish/formats/rss-0.91.dtd\">\n<rss version=\"0.91\">",
        "<!DOCTYPE rss [<!ENTITY nbsp \"&#160;\">]>\n<rss version=\"2.0\">",
        "\u{FEFF}<rss version=\"2.0\">",
        "<!-- served by feedgen --><feed xmlns=\"http://www.w3.org/2005/Atom\">",
        "{\"version\": \"https://jsonfeed.org/version/1.1\", \"title\": \"My Example Feed\", \"items\": []}",
        "  \n{\"version\":\"https://jsonfeed.org/version/1\"}",
    ])
    func feedsDoNotLookLikeHTML(feed: String) {
        #expect(!FeedDiscovery.looksLikeHTML(Array(feed.utf8), contentType: nil))
        #expect(!FeedDiscovery.looksLikeHTML(Array(feed.utf8), contentType: "application/xml"))
        // Servers label feeds text/html too; the content says otherwise.
        #expect(!FeedDiscovery.looksLikeHTML(Array(feed.utf8), contentType: "text/html"))
    }

    @Test func theReutersFixtureDoesNotLookLikeHTML() throws {
        let bytes = [UInt8](try Fixture.data("reuters_business.xml"))
        #expect(!FeedDiscovery.looksLikeHTML(bytes, contentType: "text/xml"))
    }

    @Test func contentTypeDecidesOnlyWhenTheStartTellsNothing() {
        let text = Array("Service temporarily unavailable".utf8)
        #expect(FeedDiscovery.looksLikeHTML(text, contentType: "text/html"))
        #expect(FeedDiscovery.looksLikeHTML(text, contentType: "TEXT/HTML; charset=ISO-8859-1"))
        #expect(FeedDiscovery.looksLikeHTML(text, contentType: "application/xhtml+xml"))
        #expect(FeedDiscovery.looksLikeHTML([], contentType: "text/html"))
        #expect(!FeedDiscovery.looksLikeHTML(text, contentType: nil))
        #expect(!FeedDiscovery.looksLikeHTML(text, contentType: "text/plain"))
        #expect(!FeedDiscovery.looksLikeHTML([], contentType: nil))
        let endlessComment = Array(("<!-- " + String(repeating: "x", count: 20_000)).utf8)
        #expect(FeedDiscovery.looksLikeHTML(endlessComment, contentType: "text/html"))
        #expect(!FeedDiscovery.looksLikeHTML(endlessComment, contentType: nil))
    }

    // MARK: - The value

    @Test func candidatesRoundTripThroughJSON() throws {
        let candidate = FeedCandidate(url: "https://example.com/feed/", title: "Feed", type: "rss", source: .linkElement)
        let data = try JSONEncoder().encode(candidate)
        #expect(try JSONDecoder().decode(FeedCandidate.self, from: data) == candidate)
        let json = try #require(String(data: data, encoding: .utf8))
        #expect(json.contains("\"linkElement\""))
    }
}

/// A small deterministic generator, so a failing garbage case can be reproduced.
private struct SplitMix64 {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
