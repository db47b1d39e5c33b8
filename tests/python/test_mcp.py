#!/usr/bin/python3
# test_mcp.py — the MCP client from Python: what a server says about its
# tools (hints and output schema as properties, the approval they decide),
# ::tool-changed when a server redefines a tool (tests/mcp/features-server.mjs),
# resources and prompts, elicitation answered with a dict (the reference
# server-everything), run with node.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys

from agenttest import Skip, check, check_equal, run_async, run_tests, \
    skip_unless_introspection, wait_until

skip_unless_introspection()

import gi  # noqa: E402

gi.require_version('Agent', '1.0')
from gi.repository import Agent  # noqa: E402


def new_client(name, args, handles_elicitation=False):
    directory = os.environ.get('AGENT_MCP_TEST_DIR', '')
    if os.environ.get('AGENT_NO_NPM') == '1':
        raise Skip('AGENT_NO_NPM=1: no MCP servers to test with')
    check(os.path.isdir(os.path.join(directory, 'node_modules')),
          'the MCP test servers are installed (tests/mcp/install)')
    client = Agent.McpClient.new_stdio(name, 'node',
                                       [os.path.join(directory, *args[0])] + args[1:])
    client.props.handles_elicitation = handles_elicitation
    error = run_async(lambda cb: client.connect_async(None, cb), client.connect_finish)
    check(error is True, 'connected: %r' % error)
    return client


def features_client():
    return new_client('features', [('features-server.mjs',)])


def everything_client(handles_elicitation=False):
    return new_client('everything', [('node_modules', '@modelcontextprotocol',
                                      'server-everything', 'dist', 'index.js'), 'stdio'],
                      handles_elicitation)


def close(client):
    run_async(lambda cb: client.close_async(None, cb), client.close_finish)


def find(client, name):
    for tool in client.props.tools:
        if tool.get_remote_name() == name:
            return tool
    raise AssertionError('no tool ' + name)


def test_hints():
    client = features_client()
    peek = find(client, 'peek')
    check_equal(peek.props.title, 'Peek', 'title')
    check(peek.props.read_only_hint, 'read-only')
    check(not peek.props.destructive_hint, 'not destructive')
    check(not peek.props.open_world_hint, 'closed world')
    wipe = find(client, 'wipe')
    check(wipe.props.destructive_hint and wipe.props.idempotent_hint, 'wipe hints')
    schema = find(client, 'weather').props.output_schema
    check_equal(schema.get_object().get_string_member('type'), 'object', 'output schema')
    check(find(client, 'plain').props.output_schema is None, 'no output schema')

    client.props.trusted = True
    check(find(client, 'wipe').props.requires_approval, 'destructive asks when trusted')
    check(not find(client, 'plain').props.requires_approval, 'plain runs when trusted')
    client.props.allow_destructive = True
    check(not find(client, 'wipe').props.requires_approval, 'destructive allowed')
    client.props.trusted = False
    client.props.allow_read_only = True
    check(not find(client, 'peek').props.requires_approval, 'read-only allowed')
    check(find(client, 'plain').props.requires_approval, 'plain asks')
    close(client)


def test_tool_changed():
    client = features_client()
    seen = []
    client.connect('tool-changed',
                   lambda c, tool, previous, changes: seen.append((tool, previous, changes)))
    result = run_async(lambda cb: client.call_tool_async('turn-hostile', None, None, cb),
                       client.call_tool_finish)
    check(not isinstance(result, Exception), 'called: %r' % result)
    wait_until(lambda: seen, 'tool-changed')
    tool, previous, changes = seen[0]
    check_equal(tool.get_remote_name(), 'plain', 'the tool')
    check_equal(changes, Agent.McpToolChanges.DESCRIPTION, 'what changed')
    check_equal(previous.props.description, 'Says hello', 'the old description')
    check('id_rsa' in tool.props.description, 'the new description')
    check(find(client, 'plain') == tool, 'listed')
    close(client)


def test_resources():
    client = everything_client()
    resources = run_async(lambda cb: client.list_resources_async(None, cb),
                          client.list_resources_finish)
    uris = [resource.props.uri for resource in resources]
    check('demo://resource/static/document/features.md' in uris, 'listed: %r' % uris)
    templates = run_async(lambda cb: client.list_resource_templates_async(None, cb),
                          client.list_resource_templates_finish)
    check_equal(templates[0].props.uri_template, 'demo://resource/dynamic/text/{resourceId}',
                'template')

    parts = run_async(lambda cb: client.read_resource_async('demo://resource/dynamic/text/9',
                                                            None, cb),
                      client.read_resource_finish)
    check_equal(len(parts), 1, 'one part')
    check(parts[0].get_data().get_data().decode().startswith('Resource 9:'), 'its text')
    message = Agent.Message.new_with_parts(Agent.MessageRole.USER,
                                           [Agent.ContentPart.new_text('Read this')])
    message.add_part(parts[0])
    check_equal(message.get_n_attachments(), 1, 'attached to a message')

    error = run_async(lambda cb: client.read_resource_async('demo://nothing', None, cb),
                      client.read_resource_finish)
    check(isinstance(error, Exception) and 'demo://nothing' in error.message,
          'an unknown resource: %r' % error)
    close(client)


def test_prompts():
    client = everything_client()
    prompts = run_async(lambda cb: client.list_prompts_async(None, cb),
                        client.list_prompts_finish)
    args_prompt = [p for p in prompts if p.props.name == 'args-prompt'][0]
    check_equal(list(args_prompt.props.argument_names), ['city', 'state'], 'arguments')
    check(args_prompt.get_argument_required('city'), 'city is required')

    messages = run_async(lambda cb: client.get_prompt_async('args-prompt',
                                                            {'city': 'Oslo'}, None, cb),
                         client.get_prompt_finish)
    check_equal(messages[0].get_content(), "What's weather in Oslo?", 'the message')
    check_equal(messages[0].get_role(), Agent.MessageRole.USER, 'its role')

    error = run_async(lambda cb: client.get_prompt_async('args-prompt', None, None, cb),
                      client.get_prompt_finish)
    check(isinstance(error, Exception) and 'city' in error.message,
          'a required argument left out: %r' % error)
    close(client)


def test_elicitation():
    from gi.repository import GLib

    client = everything_client(handles_elicitation=True)
    wait_until(lambda: any(t.get_remote_name() == 'trigger-elicitation-request'
                           for t in client.props.tools), 'the elicitation tool')
    requests = []
    client.connect('elicitation', lambda client, request: requests.append(request))

    results = []
    client.call_tool_async('trigger-elicitation-request', None, None,
                           lambda source, result: results.append(result))
    wait_until(lambda: requests, 'the elicitation')
    request = requests[0]
    check_equal(request.props.server_name, 'everything', 'server-name')
    check_equal(request.props.mode, Agent.McpElicitationMode.FORM, 'mode')
    schema = request.requested_schema_dict()
    check_equal(schema['required'], ['name'], 'the schema as a dict')
    check_equal(schema['properties']['integer']['maximum'], 100, 'a bound in it')

    # a dict is content: what does not follow the schema raises, the
    # request stays open
    try:
        request.accept({'name': 'Ada', 'integer': 500})
        raise AssertionError('accepted an integer beyond its maximum')
    except GLib.Error as error:
        check('“integer”' in error.message, 'the field is named: ' + error.message)
    check(not request.props.answered, 'still open')

    check(request.accept({'name': 'Ada Lovelace', 'check': True, 'integer': 7,
                          'untitledMultipleSelectEnum': ['Piano']}), 'accepted')
    check(request.props.answered, 'answered')
    wait_until(lambda: results, 'the call')
    result = client.call_tool_finish(results[0])
    from gi.repository import Json
    text = Json.to_string(result, False)
    check('- Name: Ada Lovelace' in text, 'the server got the content: ' + text)
    check('- Favorite Integer: 7' in text, 'an integer stays one: ' + text)
    close(client)


if __name__ == '__main__':
    sys.exit(run_tests([
        test_hints,
        test_tool_changed,
        test_resources,
        test_prompts,
        test_elicitation,
    ]))
