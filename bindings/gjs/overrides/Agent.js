// Agent.js — GJS overrides for libagent
//
// Loaded by `import Agent from 'gi://Agent'` (or imports.gi.Agent), with no
// extra import. They make libagent behave as a JavaScript developer
// expects:
//
// - a tool handler returns its result (a string as it is, other values as
//   JSON: true is the result `true`), throws for an error result, or
//   returns a Promise (an async function); one that answers later itself
//   returns Agent.ANSWER_LATER, and a handler written for the C protocol
//   (complete the invocation, then return true) keeps working;
// - approval handlers and the check-tool-call / filter-tool-result /
//   check-output hooks take plain values too (true allows;
//   Agent.ANSWER_LATER keeps an approval to answer it later), and fail
//   closed: a throw, a wrong type or no answer denies, blocks or rejects;
// - an exception a tool or a hook throws is logged with its stack at the
//   debug level in the Agent-Tools log domain (G_MESSAGES_DEBUG=Agent-Tools);
// - Agent.tool({name, description, parameters, execute, requiresApproval,
//   returnDirect, timeout}) declares a tool from an object, and
//   session.add_tool() takes such an object; any other key is an error;
// - session.stream(text or message) is an async generator of the turn's
//   events; Agent.write(text) prints a delta as it is, without a newline;
// - structured output: schemas as plain objects (set_output_schema,
//   send_for_object_async), session.ask_for_object(text, schema) resolves
//   to the object, session.stream(text, null, {schema}) adds object-delta
//   and object events, Agent.apply_object_changes(value, changes) applies
//   an object-delta's changes, Agent.parse_partial(text) and
//   reader.get_value_object() give partial JSON as JavaScript values.
//
// SPDX-License-Identifier: LGPL-2.1-or-later

/* exported _init */

const {GLib, Gio} = imports.gi;

const NUL_ERROR = 'The result contains a NUL character, which cannot be sent';
const LOG_DOMAIN = 'Agent-Tools';

// What a tool or approval handler returns when it keeps the invocation or
// the approval and answers it later itself (the C protocol's TRUE)
const ANSWER_LATER = Symbol('Agent.ANSWER_LATER');

// Logs `error`, which `what` threw, with its stack, at the debug level of
// the Agent-Tools domain (shown with G_MESSAGES_DEBUG)
function _logException(what, error) {
    let text = String(error);
    if (error instanceof Error || error instanceof GLib.Error)
        text = `${error}${error.stack ? `\n${error.stack.trimEnd()}` : ''}`;
    GLib.log_structured(LOG_DOMAIN, GLib.LogLevelFlags.LEVEL_DEBUG, {
        MESSAGE: `${what} threw an exception:\n${text}`,
        AGENT_EXCEPTION: error?.name ?? typeof error,
    });
}

function _message(error) {
    if (error instanceof GLib.Error)
        return error.message;
    if (error instanceof Error)
        return error.message || error.name;
    return String(error);
}

function _isThenable(value) {
    return value !== null && (typeof value === 'object' || typeof value === 'function') &&
        typeof value.then === 'function';
}

// [text, error message]: a result as the model reads it
function _text(value) {
    if (typeof value === 'string')
        return value.includes('\0') ? [null, NUL_ERROR] : [value, null];
    if (value === undefined)
        value = null;
    if (typeof value === 'number' && !Number.isFinite(value))
        return [null, `The result is not a JSON value: ${value}`];
    try {
        const text = JSON.stringify(value);
        if (text === undefined)
            return [null, `The result is not a JSON value: ${typeof value}`];
        return [text, null];
    } catch (error) {
        return [null, `The result is not a JSON value: ${error.message}`];
    }
}

function _init() {
    const Agent = this;

    Agent.ANSWER_LATER = ANSWER_LATER;

    const rawReturnResult = Agent.ToolInvocation.prototype.return_result;
    const rawReturnError = Agent.ToolInvocation.prototype.return_error_literal;

    function parameters(schema) {
        if (schema === null || schema === undefined || schema instanceof imports.gi.Json.Node)
            return schema ?? null;
        return Agent.Tool.parse_parameters(typeof schema === 'string' ? schema : JSON.stringify(schema));
    }

    const callName = call => `“${call.get_name()}” (call ${call.get_id()})`;

    function fail(invocation, error) {
        _logException(`The tool ${callName(invocation.get_tool_call())}`, error);
        if (!invocation.is_completed())
            rawReturnError.call(invocation, _message(error));
    }

    // Completes `invocation` with what a handler returned: the value is the
    // result, a Promise is awaited, ANSWER_LATER leaves it to the handler.
    function settle(invocation, value) {
        if (invocation.is_completed() || value === ANSWER_LATER)
            return;
        if (_isThenable(value)) {
            Promise.resolve(value).then(result => {
                if (!invocation.is_completed() && !invocation.get_cancellable().is_cancelled())
                    settle(invocation, result);
            }, error => {
                if (!invocation.get_cancellable().is_cancelled())
                    fail(invocation, error);
            });
            return;
        }
        const [text, error] = _text(value);
        if (error !== null)
            rawReturnError.call(invocation, error);
        else
            rawReturnResult.call(invocation, text);
    }

    function wrapHandler(handler) {
        return (tool, invocation) => {
            try {
                settle(invocation, handler(tool, invocation));
            } catch (error) {  // the exception is the call's error result
                fail(invocation, error);
            }
            return true;
        };
    }

    const rawToolNew = Agent.Tool.new;
    Agent.Tool.new = function (name, description, schema, handler) {
        return rawToolNew.call(this, name, description, parameters(schema), wrapHandler(handler));
    };

    Agent.ToolInvocation.prototype.return_result = function (result) {
        if (typeof result === 'string' && result.includes('\0'))
            rawReturnError.call(this, NUL_ERROR);
        else
            rawReturnResult.call(this, result);
    };

    /** Completes the invocation with `value`: a string as it is, other values as JSON. */
    Agent.ToolInvocation.prototype.return_value = function (value) {
        if (value === ANSWER_LATER)
            throw new TypeError('return_value() needs a value, not Agent.ANSWER_LATER');
        settle(this, value);
    };

    Object.defineProperty(Agent.ToolInvocation.prototype, 'args', {
        get() {
            return JSON.parse(imports.gi.Json.to_string(this.get_arguments(), false));
        },
        configurable: true,
    });

    /** The call's arguments, parsed (throws when they are not a JSON object). */
    Agent.ToolCall.prototype.parse_arguments_object = function () {
        return JSON.parse(imports.gi.Json.to_string(this.parse_arguments(), false));
    };

    // MCP elicitation: values as a plain object
    function jsonObject(value) {
        if (value === null || value === undefined || value instanceof imports.gi.Json.Object)
            return value ?? null;
        return imports.gi.Json.from_string(JSON.stringify(value)).get_object();
    }
    const rawValidate = Agent.McpElicitation.prototype.validate;
    const rawAccept = Agent.McpElicitation.prototype.accept;

    /** Checks values (a plain object by field name, or a Json.Object); throws naming the field. */
    Agent.McpElicitation.prototype.validate = function (content) {
        return rawValidate.call(this, jsonObject(content));
    };

    /** Accepts with values (a plain object, a Json.Object, or null in URL mode). */
    Agent.McpElicitation.prototype.accept = function (content = null) {
        return rawAccept.call(this, jsonObject(content));
    };

    /** The requested schema as a plain object, or null in URL mode. */
    Object.defineProperty(Agent.McpElicitation.prototype, 'schema', {
        get() {
            const schema = this.get_requested_schema();
            if (schema === null)
                return null;
            const node = imports.gi.Json.Node.alloc().init_object(schema);
            return JSON.parse(imports.gi.Json.to_string(node, false));
        },
        configurable: true,
    });

    // The keys of a tool object: [name, its other spelling, what it takes, a check]
    const toolKeys = [
        ['name', null, 'a name', v => typeof v === 'string' && v !== ''],
        ['description', null, 'a string', v => typeof v === 'string'],
        ['parameters', null, 'a JSON Schema (an object, JSON text or a Json.Node)',
            v => typeof v === 'string' || (typeof v === 'object' && v !== null)],
        ['execute', null, 'a function', v => typeof v === 'function'],
        ['requiresApproval', 'requires_approval', 'true or false', v => typeof v === 'boolean'],
        ['returnDirect', 'return_direct', 'true or false', v => typeof v === 'boolean'],
        ['timeout', null, 'seconds, a number >= 0',
            v => typeof v === 'number' && Number.isFinite(v) && v >= 0],
    ];
    const toolKeyList = toolKeys.map(([key, other]) => other ? `${key} (or ${other})` : key)
        .join(', ');

    // The options of a tool object, checked: an unknown key, a key given
    // twice or a value of the wrong type is a TypeError that says so.
    function toolOptions(spec) {
        if (typeof spec !== 'object' || spec === null || spec instanceof Agent.Tool)
            throw new TypeError('Agent.tool() takes an object: {name, execute, …}');
        const known = new Map();
        toolKeys.forEach(entry => {
            known.set(entry[0], entry);
            if (entry[1])
                known.set(entry[1], entry);
        });
        const options = {};
        for (const [key, value] of Object.entries(spec)) {
            const entry = known.get(key);
            if (!entry) {
                throw new TypeError(`Agent.tool(): unknown key “${key}”; a tool object takes ` +
                    `${toolKeyList}`);
            }
            const [name, , what, valid] = entry;
            if (value === undefined)
                continue;
            if (name in options)
                throw new TypeError(`Agent.tool(): ${name} is given twice`);
            if (!valid(value))
                throw new TypeError(`Agent.tool(): ${key} must be ${what}, not ${typeof value}`);
            options[name] = value;
        }
        if (!('name' in options) || !('execute' in options))
            throw new TypeError('Agent.tool() needs a name and an execute function');
        return options;
    }

    /**
     * A tool from an object: {name, description, parameters (a JSON Schema
     * object), execute(args, invocation), requiresApproval, returnDirect,
     * timeout}; requires_approval and return_direct are the same keys,
     * spelt as GObject properties are. execute returns the result, throws,
     * or returns a Promise. Any other key is a TypeError naming it.
     */
    Agent.tool = function (spec) {
        const options = toolOptions(spec);
        const tool = Agent.Tool.new(options.name, options.description ?? '',
            options.parameters ?? {type: 'object', properties: {}},
            (_tool, invocation) => options.execute(invocation.args, invocation));
        tool.requires_approval = options.requiresApproval ?? false;
        tool.return_direct = options.returnDirect ?? false;
        tool.timeout = options.timeout ?? 0;
        return tool;
    };

    const rawAddTool = Agent.Session.prototype.add_tool;
    Agent.Session.prototype.add_tool = function (tool) {
        rawAddTool.call(this, tool instanceof Agent.Tool ? tool : Agent.tool(tool));
    };

    // --- hooks ---

    function decision(value) {
        if (value instanceof Agent.ToolDecision)
            return value;
        if (value === true)
            return Agent.ToolDecision.new_allow();
        if (value === false)
            return Agent.ToolDecision.new_block('a check-tool-call hook refused it');
        if (typeof value === 'string' && value !== '')
            return Agent.ToolDecision.new_block(value);
        if (value === null || value === undefined)
            return Agent.ToolDecision.new_block('the check-tool-call hook gave no decision');
        if (value === ANSWER_LATER)
            return Agent.ToolDecision.new_block('the check-tool-call hook must decide at once');
        if (_isThenable(value)) {
            return Agent.ToolDecision.new_block(
                'the check-tool-call hook must decide at once, not in a Promise');
        }
        return Agent.ToolDecision.new_block(
            `the check-tool-call hook returned ${typeof value}, not a decision`);
    }

    // Answers `approval` with what a handler returned: true allows; false,
    // null, undefined or a reason deny; ANSWER_LATER leaves it to the handler.
    function answer(approval, value) {
        if (approval.is_answered() || value === ANSWER_LATER)
            return;
        if (value instanceof Agent.ToolDecision) {
            if (value.allowed)
                approval.allow();
            else
                approval.deny(value.reason);
        } else if (value === true) {
            approval.allow();
        } else if (typeof value === 'string' && value !== '') {
            approval.deny(value);
        } else if (value === false || value === null || value === undefined) {
            approval.deny(null);
        } else {
            approval.deny(`the approve-tool-call handler returned ${typeof value}, not an answer`);
        }
    }

    function outputDecision(value) {
        if (value instanceof Agent.OutputDecision)
            return value;
        if (value === true)
            return Agent.OutputDecision.new_allow();
        if (value === false)
            return Agent.OutputDecision.new_reject('a check-output hook rejected it');
        if (value === null || value === undefined)
            return Agent.OutputDecision.new_reject('the check-output hook gave no decision');
        if (_isThenable(value)) {
            return Agent.OutputDecision.new_reject(
                'the check-output hook must decide at once, not in a Promise');
        }
        return Agent.OutputDecision.new_reject(
            `the check-output hook returned ${typeof value}, not a decision`);
    }

    const hooks = {
        'check-output': handler => (session, answer, ...rest) => {
            try {
                return outputDecision(handler(session, answer, ...rest));
            } catch (error) {  // fail closed
                _logException('The check-output hook', error);
                return Agent.OutputDecision.new_reject(
                    `the check-output hook failed: ${_message(error)}`);
            }
        },
        'check-tool-call': handler => (session, call, ...rest) => {
            try {
                return decision(handler(session, call, ...rest));
            } catch (error) {  // fail closed
                _logException(`The check-tool-call hook, for ${callName(call)},`, error);
                return Agent.ToolDecision.new_block(
                    `the check-tool-call hook failed: ${_message(error)}`);
            }
        },
        'filter-tool-result': handler => (session, call, ...rest) => {
            let value;
            try {
                value = handler(session, call, ...rest);
            } catch (error) {  // withheld rather than unfiltered
                _logException(`The filter-tool-result hook, for ${callName(call)},`, error);
                return 'The result was withheld: the filter-tool-result hook failed: ' +
                    `${_message(error)}`;
            }
            if (value === null || value === undefined)
                return null;
            const [text, error] = _text(value);
            return error !== null ? `The result was withheld: ${error}` : text;
        },
        'approve-tool-call': handler => (session, call, approval, ...rest) => {
            let value;
            try {
                value = handler(session, call, approval, ...rest);
            } catch (error) {  // fail closed
                _logException(`The approve-tool-call handler, for ${callName(call)},`, error);
                if (!approval.is_answered())
                    approval.deny(_message(error));
                return true;
            }
            if (_isThenable(value)) {
                Promise.resolve(value).then(result => {
                    if (!approval.get_cancellable().is_cancelled())
                        answer(approval, result);
                }, error => {
                    _logException(`The approve-tool-call handler, for ${callName(call)},`, error);
                    if (!approval.is_answered() && !approval.get_cancellable().is_cancelled())
                        approval.deny(_message(error));
                });
                return true;
            }
            answer(approval, value);
            return true;
        },
    };

    const rawConnect = Agent.Session.prototype.connect;
    const rawConnectAfter = Agent.Session.prototype.connect_after;
    Agent.Session.prototype.connect = function (signal, handler) {
        const wrap = hooks[signal.split('::')[0]];
        return rawConnect.call(this, signal, wrap ? wrap(handler) : handler);
    };
    Agent.Session.prototype.connect_after = function (signal, handler) {
        const wrap = hooks[signal.split('::')[0]];
        return rawConnectAfter.call(this, signal, wrap ? wrap(handler) : handler);
    };

    // --- events ---

    // Usage and metrics in the form the library writes them
    const asObject = node => JSON.parse(imports.gi.Json.to_string(node, false));
    const usageFields = usage => usage ? asObject(usage.to_json()) : null;
    const metricsFields = metrics => metrics ? asObject(metrics.to_json()) : null;

    // --- structured output ---

    const rawSetOutputSchema = Agent.Session.prototype.set_output_schema;
    const rawSendForObject = Agent.Session.prototype.send_for_object_async;
    const rawFeed = Agent.PartialJson.prototype.feed;
    const jsValue = node => node ? asObject(node) : null;
    const encode = text => typeof text === 'string' ? new TextEncoder().encode(text) : text;

    Agent.Session.prototype.set_output_schema = function (schema) {
        rawSetOutputSchema.call(this, parameters(schema));
    };

    Agent.Session.prototype.send_for_object_async = function (text, schema, cancellable, callback) {
        rawSendForObject.call(this, text, parameters(schema), cancellable, callback);
    };

    /**
     * Sends `text` for an answer that follows `schema` (an object, JSON
     * text, a Json.Node, or null for the session's output-schema) and
     * resolves to the object as JavaScript values; rejects with the
     * GLib.Error (code 'schema' when the answer does not follow it).
     */
    Agent.Session.prototype.ask_for_object = function (text, schema = null, cancellable = null) {
        return new Promise((resolve, reject) => {
            this.send_for_object_async(text, schema, cancellable, (session, result) => {
                try {
                    resolve(jsValue(session.send_for_object_finish(result)));
                } catch (error) {
                    reject(error);
                }
            });
        });
    };

    Agent.PartialJson.prototype.feed = function (text) {
        return rawFeed.call(this, encode(text));
    };

    /** The value read so far, as JavaScript values (a copy). */
    Agent.PartialJson.prototype.get_value_object = function () {
        return jsValue(this.get_value());
    };

    let stdout = null;
    const encoder = new TextEncoder();

    /**
     * Writes `text` to standard output as it is — print() would add a
     * newline — and flushes it: Agent.write(delta) prints a streamed answer,
     * as process.stdout.write() does in Node.js.
     */
    Agent.write = function (text) {
        stdout ??= new Gio.UnixOutputStream({fd: 1, close_fd: false});
        const bytes = encoder.encode(String(text));
        if (bytes.length > 0)
            stdout.write_all(bytes, null);
    };

    /** The start of a JSON document as JavaScript values, as far as it arrived. */
    Agent.parse_partial = text => jsValue(Agent.json_parse_partial(encode(text)));

    // The fields of agent-cli's --json error and retry lines
    const errorFields = error => {
        const fields = {code: Agent.error_get_code(error)};
        const status = Agent.error_get_http_status(error);
        if (status)
            fields['http-status'] = status;
        fields.message = error.message;
        return fields;
    };

    const rawSendAsync = Agent.Session.prototype.send_async;
    const rawSendFinish = Agent.Session.prototype.send_finish;
    const rawSendMessageAsync = Agent.Session.prototype.send_message_async;
    const rawSendMessageFinish = Agent.Session.prototype.send_message_finish;
    const rawSendForObjectFinish = Agent.Session.prototype.send_for_object_finish;
    const rawGetOutputSchema = Agent.Session.prototype.get_output_schema;

    // Starts the turn of stream(): after `what`, a string or an
    // Agent.Message, asking for an answer that follows `schema` if it is
    // given. Calls finished(message) or finished(null, error).
    function startStream(session, what, schema, cancellable, finished) {
        const isMessage = what instanceof Agent.Message;
        if (!isMessage && typeof what !== 'string')
            throw new TypeError(`stream() sends a string or an Agent.Message, not ${typeof what}`);
        const lastMessage = () => {
            const memory = session.get_memory();
            return memory.get_item(memory.get_n_items() - 1);
        };
        const settle = finish => (source, result) => {
            let message;
            try {
                message = finish(source, result);
            } catch (error) {
                finished(null, error);
                return;
            }
            finished(message, null);
        };
        const withSchema = schema !== undefined && schema !== null;
        if (!withSchema && isMessage) {
            rawSendMessageAsync.call(session, what, cancellable,
                settle((s, r) => rawSendMessageFinish.call(s, r)));
        } else if (!withSchema) {
            rawSendAsync.call(session, what, cancellable,
                settle((s, r) => rawSendFinish.call(s, r)));
        } else if (isMessage) {
            // No send_for_object for a message: the output-schema of the
            // session, which a turn reads as it starts, for this one only
            const kept = rawGetOutputSchema.call(session);
            rawSetOutputSchema.call(session, parameters(schema));
            try {
                rawSendMessageAsync.call(session, what, cancellable, settle((s, r) => {
                    rawSendMessageFinish.call(s, r);
                    return lastMessage();
                }));
            } finally {
                rawSetOutputSchema.call(session, kept);
            }
        } else {
            rawSendForObject.call(session, what, parameters(schema), cancellable, settle((s, r) => {
                rawSendForObjectFinish.call(s, r);
                return lastMessage();
            }));
        }
    }

    /**
     * The value after the changes of an object-delta (an array of {op,
     * path, value}, see Agent.Session::object-delta): 'add' at '' is the
     * object anew; 'append' extends the string, array or object at its
     * JSON pointer by its value. Arrays and objects change in place; the
     * changes' own values are copied, never shared.
     */
    Agent.apply_object_changes = function (value, changes) {
        for (const change of changes) {
            const added = JSON.parse(JSON.stringify(change.value));
            if (change.op === 'add') {
                value = added;
                continue;
            }
            const parts = change.path.split('/').slice(1)
                .map(part => part.replace(/~1/g, '/').replace(/~0/g, '~'));
            let parent = null;
            let target = value;
            for (const part of parts) {
                parent = target;
                target = target[Array.isArray(target) ? Number(part) : part];
            }
            if (typeof target === 'string') {
                if (parent === null)
                    value = target + added;
                else
                    parent[Array.isArray(parent) ? Number(parts.at(-1)) : parts.at(-1)] = target + added;
            } else if (Array.isArray(target)) {
                for (const element of added)
                    target.push(element);
            } else {
                Object.assign(target, added);
            }
        }
        return value;
    };

    /**
     * Runs a turn after `text` — a string, or an Agent.Message with images
     * and documents — and yields its events, objects with the fields of
     * agent-cli's --json lines. The last is 'done'; or 'error', after which
     * the GLib.Error is thrown. Leaving the loop early cancels the turn.
     * The GLib main loop must run (it does in `gjs -m` while a top-level
     * await is pending, and in an application). With {schema} the answer
     * is to follow it: 'object-delta' events carry `changes` (what the
     * object gained, as agent-cli's lines do) and `object` (the object so
     * far, built from them: the same value in each event of an answer,
     * growing), an 'object' event the whole of it.
     */
    Agent.Session.prototype.stream = async function* (text, cancellable = null, {schema} = {}) {
        const queue = [];
        let object = null;
        let wake = null;
        let done = false;
        let failure = null;
        const add = (type, fields = {}) => {
            queue.push({type, ...fields});
            wake?.();
        };
        const call = c => ({id: c.get_id(), name: c.get_name()});
        const ids = [
            rawConnect.call(this, 'text-delta', (_s, _m, t) => add('text-delta', {text: t})),
            rawConnect.call(this, 'reasoning-delta', (_s, _m, t) => add('reasoning-delta', {text: t})),
            rawConnect.call(this, 'tool-call-delta', (_s, c, delta) => add('tool-call-delta',
                {index: c.get_index(), ...call(c), 'arguments-delta': delta})),
            rawConnect.call(this, 'tool-call', (_s, c) => add('tool-call',
                {...call(c), arguments: c.get_arguments()})),
            rawConnect.call(this, 'tool-started', (_s, c) => add('tool-started',
                {...call(c), arguments: c.get_arguments()})),
            rawConnect.call(this, 'tool-failed', (_s, c, error) => add('tool-failed',
                {...call(c), ...errorFields(error)})),
            rawConnect.call(this, 'tool-finished', (_s, c) => add('tool-finished',
                {...call(c), [c.is_error ? 'error' : 'result']: c.get_result()})),
            rawConnect.call(this, 'tool-progress', (_s, c, fraction, t) => add('tool-progress',
                {...call(c), fraction: fraction < 0 ? null : fraction, text: t})),
            rawConnect.call(this, 'retry', (_s, attempt, delay, error) => add('retry', {
                attempt, 'delay-ms': Math.round(delay * 1000), ...errorFields(error),
            })),
            rawConnect.call(this, 'step-finished', (_s, m) => add('step-finished', {
                'finish-reason': m.get_finish_reason(), usage: usageFields(m.get_usage()),
                metrics: metricsFields(m.get_metrics()),
            })),
            rawConnect.call(this, 'object-delta', (_s, _m, _node, changes) => {
                // The object so far, built from the changes: each piece
                // converted once, not the whole object again for each
                const list = jsValue(changes);
                object = Agent.apply_object_changes(object, list);
                add('object-delta', {changes: list, object});
            }),
            rawConnect.call(this, 'object-finished', (_s, _m, node) => add('object',
                {object: jsValue(node)})),
        ];
        const own = new Gio.Cancellable();
        const finished = (message, error) => {
            if (error !== null) {
                failure = error;
                add('error', errorFields(error));
            } else {
                const content = {role: 'assistant', content: message.get_content()};
                if (message.get_reasoning() !== null)
                    content.reasoning = message.get_reasoning();
                if (message.get_refusal() !== null)
                    content.refusal = message.get_refusal();
                add('done', {
                    message: content, usage: usageFields(this.get_usage()),
                    metrics: metricsFields(message.get_turn_metrics()),
                });
            }
            done = true;
            wake?.();
        };
        try {
            startStream(this, text, schema, own, finished);
        } catch (error) {
            ids.forEach(id => this.disconnect(id));
            throw error;
        }
        const relay = cancellable ? cancellable.connect(() => own.cancel()) : 0;

        try {
            for (;;) {
                while (queue.length > 0)
                    yield queue.shift();
                if (done)
                    break;
                // eslint-disable-next-line no-await-in-loop
                await new Promise(resolve => {
                    wake = resolve;
                });
                wake = null;
            }
        } finally {
            ids.forEach(id => this.disconnect(id));
            if (relay)
                cancellable.disconnect(relay);
            if (!done)
                own.cancel();
        }
        if (failure !== null)
            throw failure;
    };
}
