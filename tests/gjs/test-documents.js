// test-documents.js — Agent.DocumentIndex and search_documents from
// JavaScript: an update with its signals, a search that finds the right
// file, the tool's answer, against an OpenAI-shaped embedding server
// (Soup.Server in this process) whose vectors are each text's words
// hashed into 64 counts.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import GLib from 'gi://GLib';
import Gio from 'gi://Gio';
import Json from 'gi://Json';
import Soup from 'gi://Soup?version=3.0';
import System from 'system';

import {check, checkEqual, runTests, skipUnlessIntrospection} from './agenttest.js';

skipUnlessIntrospection();
let Agent = null;
const encoder = new TextEncoder();
const COMMON = new Set(['a', 'an', 'and', 'the', 'of', 'to', 'in', 'on', 'is', 'it', 'for',
    'with', 'or']);
let nRequests = 0;

function hash(word) {
    let h = 5381;
    for (const c of word)
        h = (h * 33 + c.charCodeAt(0)) % 1000003;
    return h % 64;
}

function vector(text) {
    const counts = new Array(64).fill(0);
    counts[0] = 0.01;
    for (const word of text.toLowerCase().split(/[^a-z0-9]+/)) {
        if (word && !COMMON.has(word))
            counts[hash(word)] += 1;
    }
    return counts;
}

function startServer() {
    const server = new Soup.Server();
    server.add_handler('/v1/embeddings', (_server, message) => {
        const request = JSON.parse(new TextDecoder().decode(
            message.get_request_body().flatten().get_data()));
        nRequests++;
        const data = request.input.map((text, index) => ({object: 'embedding', index,
            embedding: vector(text)}));
        message.set_status(200, null);
        message.set_response('application/json', Soup.MemoryUse.COPY,
            encoder.encode(JSON.stringify({object: 'list', data})));
    });
    server.listen_local(0, Soup.ServerListenOptions.IPV4_ONLY);
    return [server, `${server.get_uris()[0].to_string().replace(/\/$/, '')}/v1`];
}

function copyTree(from, to) {
    GLib.mkdir_with_parents(to, 0o700);
    const dir = Gio.File.new_for_path(from);
    const children = dir.enumerate_children('standard::name,standard::type',
        Gio.FileQueryInfoFlags.NOFOLLOW_SYMLINKS, null);
    let info;
    while ((info = children.next_file(null)) !== null) {
        const source = GLib.build_filenamev([from, info.get_name()]);
        const target = GLib.build_filenamev([to, info.get_name()]);
        if (info.get_file_type() === Gio.FileType.DIRECTORY)
            copyTree(source, target);
        else
            Gio.File.new_for_path(source).copy(Gio.File.new_for_path(target),
                Gio.FileCopyFlags.NONE, null, null);
    }
}

let server = null;
let url = null;
let tmp = null;
let folder = null;
let index = null;

async function setup() {
    ({default: Agent} = await import('gi://Agent?version=1.0'));
    if (!Agent.DocumentIndex) {
        print('# libagent was built without its store: no document index');
        System.exit(77);
    }
    Gio._promisify(Agent.DocumentIndex.prototype, 'update_async', 'update_finish');
    Gio._promisify(Agent.DocumentIndex.prototype, 'search_async', 'search_finish');
    [server, url] = startServer();
    tmp = GLib.dir_make_tmp('gjs-documents-XXXXXX');
    folder = GLib.build_filenamev([tmp, 'docs']);
    const here = GLib.path_get_dirname(GLib.filename_from_uri(import.meta.url)[0]);
    copyTree(GLib.build_filenamev([here, '..', 'data', 'documents']), folder);
    const provider = Agent.Provider.new('openai');
    provider.set_base_url(url);
    index = Agent.DocumentIndex.new(GLib.build_filenamev([tmp, 'documents.db']), provider,
        'embed-test');
}

async function testUpdate() {
    const indexed = [];
    const failed = [];
    index.set_folders([folder]);
    index.connect('file-indexed', (_index, path, nChunks) => indexed.push([path, nChunks]));
    index.connect('file-failed', (_index, path, error) => failed.push([path, error.message]));
    checkEqual(await index.update_async(null), true, 'the update');
    checkEqual(failed, [], 'no file failed');
    checkEqual(indexed.length, 10, 'files indexed');
    check(indexed.every(([path, n]) => path.startsWith(folder) && n >= 1), 'paths and chunks');
    checkEqual(index.n_files, 10, 'n-files');
    checkEqual(index.files_done, index.files_total, 'files-done');
    checkEqual(index.indexing, false, 'indexing');
    checkEqual(nRequests, 10, 'one request a file');
}

async function testSearch() {
    const node = await index.search_async('cast on forty stitches, wool and needles', 2, null);
    const hits = JSON.parse(Json.to_string(node, false));
    checkEqual(hits.length, 2, 'two hits');
    check(hits[0].path.endsWith('/notes/knitting.md'), hits[0].path);
    check(hits[0].score >= hits[1].score, 'best first');
}

async function testTool() {
    const tool = Agent.search_documents_tool_new(index);
    checkEqual(tool.get_requires_approval(), false, 'no approval');
    const call = Agent.ToolCall.new('call_1', 'search_documents',
        JSON.stringify({query: 'reflector telescope aperture and galaxies'}));
    const invocation = Agent.ToolInvocation.new(tool, call, null);
    const completed = new Promise(resolve => {
        invocation.connect('notify::completed', () => resolve());
    });
    tool.invoke(invocation);
    if (!invocation.is_completed())
        await completed;
    const [result, isError] = invocation.dup_result();
    checkEqual(isError, false, 'the tool failed');
    const hits = JSON.parse(result);
    checkEqual(hits.length, 5, 'five unless said');
    check(hits[0].path.endsWith('/notes/telescope.txt'), hits[0].path);
}

runTests(setup, [testUpdate, testSearch, testTool]);
