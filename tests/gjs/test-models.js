// test-models.js — Agent.ModelManager from JavaScript: list with
// capabilities, pull with progress, a cancelled pull, an unknown model's
// error code, against a fake Ollama (Soup.Server, the shapes of Ollama's
// docs/api.md).
//
// SPDX-License-Identifier: LGPL-2.1-or-later

import GLib from 'gi://GLib';
import Gio from 'gi://Gio';
import Soup from 'gi://Soup?version=3.0';

import {check, checkEqual, runTests, skipUnlessIntrospection} from './agenttest.js';

skipUnlessIntrospection();
let Agent = null;
const encoder = new TextEncoder();

const TAGS = {models: [{name: 'qwen3:8b', model: 'qwen3:8b', size: 5225376047,
    details: {family: 'qwen3', parameter_size: '8.2B', quantization_level: 'Q4_K_M'}}]};
const SHOW = {details: {family: 'qwen3'}, capabilities: ['completion', 'tools', 'thinking'],
    model_info: {'general.architecture': 'qwen3', 'qwen3.context_length': 40960}};
let stopAfterFirstLayer = false;

function pullLines() {
    const lines = [{status: 'pulling manifest'}];
    for (const [digest, total] of [['1'.repeat(64), 4000000], ['2'.repeat(64), 1024]]) {
        const status = `pulling ${digest.slice(0, 12)}`;
        lines.push({status, digest: `sha256:${digest}`, total});
        lines.push({status, digest: `sha256:${digest}`, total, completed: total / 2});
        if (stopAfterFirstLayer)
            return lines;
        lines.push({status, digest: `sha256:${digest}`, total, completed: total});
    }
    return [...lines, {status: 'verifying sha256 digest'}, {status: 'writing manifest'},
        {status: 'success'}];
}

function startServer() {
    const server = new Soup.Server();
    server.add_handler(null, (_server, message, path) => {
        const json = body => message.set_response('application/json', Soup.MemoryUse.COPY,
            encoder.encode(JSON.stringify(body)));
        message.set_status(200, null);
        if (path === '/api/tags') {
            json(TAGS);
        } else if (path === '/api/show') {
            const request = JSON.parse(new TextDecoder().decode(
                message.get_request_body().flatten().get_data()));
            if (request.model === 'qwen3:8b') {
                json(SHOW);
            } else {
                message.set_status(404, null);
                json({error: `model '${request.model}' not found`});
            }
        } else {
            // A pull: the lines, and for a stopped one no end
            message.get_response_headers().set_encoding(Soup.Encoding.CHUNKED);
            const body = message.get_response_body();
            for (const line of pullLines())
                body.append(encoder.encode(`${JSON.stringify(line)}\n`));
            if (!stopAfterFirstLayer)
                body.complete();
        }
    });
    server.listen_local(0, Soup.ServerListenOptions.IPV4_ONLY);
    return [server, server.get_uris()[0].to_string().replace(/\/$/, '')];
}

let server = null;
let url = null;

async function setup() {
    ({default: Agent} = await import('gi://Agent?version=1.0'));
    Gio._promisify(Agent.ModelManager.prototype, 'list_async', 'list_finish');
    Gio._promisify(Agent.ModelManager.prototype, 'pull_async', 'pull_finish');
    Gio._promisify(Agent.ModelManager.prototype, 'show_async', 'show_finish');
    [server, url] = startServer();
}

function newManager() {
    const provider = Agent.Provider.new('ollama');
    provider.set_base_url(url);
    return Agent.ModelManager.new(provider);
}

async function testList() {
    const manager = newManager();
    check(manager.supported, 'Ollama has a manager');
    const models = await manager.list_async(null);
    checkEqual(models.get_n_items(), 1);
    const info = models.get_item(0);
    checkEqual(info.name, 'qwen3:8b');
    checkEqual(info.context_length, 40960);
    check(info.has_capabilities(Agent.ModelCapabilities.TOOLS), 'tools');
    check(!info.has_capabilities(Agent.ModelCapabilities.VISION), 'no vision');
}

async function testPullProgress() {
    const manager = newManager();
    const heard = [];
    manager.connect('pull-progress', (_m, progress) => heard.push([progress.status,
        progress.overall_completed, progress.overall_total]));
    checkEqual(await manager.pull_async('llama3.2', null), true);
    checkEqual(heard[0][0], 'pulling manifest');
    checkEqual(heard[heard.length - 1], ['success', 4001024, 4001024]);
}

async function testPullCancel() {
    const manager = newManager();
    const cancellable = new Gio.Cancellable();
    stopAfterFirstLayer = true;
    manager.connect('pull-progress', (_m, progress) => {
        if (progress.completed > 0)
            cancellable.cancel();
    });
    try {
        await manager.pull_async('llama3.2', cancellable);
        check(false, 'a cancelled pull fails');
    } catch (error) {
        check(error.matches(Gio.IOErrorEnum, Gio.IOErrorEnum.CANCELLED), `${error}`);
    } finally {
        stopAfterFirstLayer = false;
    }
}

async function testUnknown() {
    const manager = newManager();
    try {
        await manager.show_async('mistral', null);
        check(false, 'an unknown model fails');
    } catch (error) {
        checkEqual(Agent.error_get_code(error), 'model-not-found');
        check(error.message.includes('agent-cli --pull mistral'), error.message);
    }
}

runTests(setup, [testList, testPullProgress, testPullCancel, testUnknown]);
