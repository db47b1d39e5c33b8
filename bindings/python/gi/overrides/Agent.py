# Agent.py — PyGObject overrides for libagent
#
# Loaded by `from gi.repository import Agent`, with no extra import. They
# make libagent behave as a Python developer expects:
#
# - a tool handler returns its result (str as it is; dict, list, numbers,
#   bool and None as JSON: True is the result `true`), raises for an error
#   result, or is `async def`; one that answers later itself returns
#   Agent.ANSWER_LATER, and a handler written for the C protocol (complete
#   the invocation, then return True) keeps working;
# - approval handlers and the check-tool-call / filter-tool-result /
#   check-output hooks take plain values too (True allows;
#   Agent.ANSWER_LATER keeps an approval to answer it later), and fail
#   closed: an exception, a wrong type or no answer denies, blocks or
#   rejects;
# - an exception a tool or a hook raises is logged with its traceback at the
#   debug level in the Agent-Tools log domain (G_MESSAGES_DEBUG=Agent-Tools);
# - `@Agent.tool` declares a tool from a function, its JSON Schema built
#   from type hints and docstring; an unknown option is a TypeError;
# - `session.stream(text or message)` iterates the events of a turn, and
#   `session.stream_async(…)` does so for asyncio.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import asyncio
import collections
import copy
import inspect
import json
import re
import traceback
import typing

from gi.repository import GLib

from ..module import get_introspection_module
from ..overrides import override

Agent = get_introspection_module('Agent')

__all__ = []

NUL_ERROR = 'The result contains a NUL character, which cannot be sent'
LOG_DOMAIN = 'Agent-Tools'


class _AnswerLater:
    """The type of Agent.ANSWER_LATER."""

    __slots__ = ()

    def __repr__(self):
        return 'Agent.ANSWER_LATER'


ANSWER_LATER = _AnswerLater()
"""What a tool or approval handler returns when it keeps the invocation
or the approval and answers it later itself (the C protocol's TRUE): it
must keep a reference until it does."""

__all__.append('ANSWER_LATER')


# --- values ----------------------------------------------------------------

def _message(error):
    """The words of an exception, for the model or a reason."""
    if isinstance(error, GLib.Error):
        return error.message
    text = str(error)
    return text if text else type(error).__name__


def _log_exception(what, error):
    """Logs @error, which @what raised, with its traceback, at the debug
    level of the Agent-Tools domain (shown with G_MESSAGES_DEBUG)."""
    lines = traceback.format_exception(type(error), error, error.__traceback__)
    text = '%s raised an exception:\n%s' % (what, ''.join(lines).rstrip())
    fields = {'MESSAGE': GLib.Variant('s', text),
              'AGENT_EXCEPTION': GLib.Variant('s', type(error).__name__)}
    GLib.log_variant(LOG_DOMAIN, GLib.LogLevelFlags.LEVEL_DEBUG,
                     GLib.Variant('a{sv}', fields))


def _tool_name(invocation):
    call = invocation.get_tool_call()
    return 'The tool “%s” (call %s)' % (call.get_name(), call.get_id())


def _text(value):
    """(text, error message): a result as the model reads it."""
    if isinstance(value, str):
        if '\0' in value:
            return None, NUL_ERROR
        return value, None
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False), None
    except (TypeError, ValueError) as error:
        return None, 'The result is not a JSON value: %s' % error


def _python(node):
    """A Json.Node as Python values."""
    if node is None:
        return None
    from gi.repository import Json
    return json.loads(Json.to_string(node, False))


def _parameters(parameters):
    """A tool's parameters schema as a Json.Node, from a dict, JSON text
    or a Json.Node."""
    if parameters is None or not isinstance(parameters, (str, dict)):
        return parameters
    if isinstance(parameters, dict):
        parameters = json.dumps(parameters)
    return Agent.Tool.parse_parameters(parameters)


# --- awaiting ---------------------------------------------------------------

class _GLibStepper:
    """Runs coroutines on a private asyncio loop, stepped from the GLib
    main loop, for handlers called while no asyncio loop runs (PyGObject
    before 3.50 has no asyncio integration)."""

    INTERVAL_MS = 5

    def __init__(self):
        self.loop = None
        self.tasks = set()
        self.source = 0

    def start(self, awaitable):
        if self.loop is None:
            self.loop = asyncio.new_event_loop()
        task = asyncio.ensure_future(awaitable, loop=self.loop)
        self.tasks.add(task)
        if not self.source:
            self.source = GLib.timeout_add(self.INTERVAL_MS, self.step)
        return task

    def step(self):
        self.loop.call_soon(self.loop.stop)
        self.loop.run_forever()
        self.tasks = {task for task in self.tasks if not task.done()}
        if self.tasks:
            return GLib.SOURCE_CONTINUE
        self.source = 0
        return GLib.SOURCE_REMOVE


_stepper = _GLibStepper()


def _await(awaitable, done, cancellable=None):
    """Runs @awaitable, then calls done(value, error) on this thread: on the
    running asyncio loop if there is one, else on a loop GLib steps."""
    async def run():
        try:
            value = await awaitable
        except BaseException as error:  # cancelled too: done() says so
            done(None, error)
        else:
            done(value, None)

    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        loop = None
    task = loop.create_task(run()) if loop is not None else _stepper.start(run())
    if cancellable is not None:
        cancellable.connect(lambda *args: task.cancel())
    return task


# --- tools -----------------------------------------------------------------

def _fail(invocation, error):
    _log_exception(_tool_name(invocation), error)
    if not invocation.is_completed():
        Agent.ToolInvocation.return_error_literal(invocation, _message(error))


def _settle(invocation, value):
    """Completes @invocation with what a handler returned: the value is
    the result, an awaitable is awaited, ANSWER_LATER leaves it to the
    handler."""
    if invocation.is_completed() or value is ANSWER_LATER:
        return
    if inspect.isawaitable(value):
        def done(result, error):
            if invocation.is_completed() or invocation.get_cancellable().is_cancelled():
                return
            if error is not None:
                _fail(invocation, error)
            else:
                _settle(invocation, result)
        _await(value, done, invocation.get_cancellable())
        return
    text, error = _text(value)
    if error is not None:
        Agent.ToolInvocation.return_error_literal(invocation, error)
    else:
        Agent.ToolInvocation.return_result(invocation, text)


def _handler(function, user_data=()):
    def invoke(tool, invocation, *ignored):
        try:
            value = function(tool, invocation, *user_data)
        except Exception as error:  # the exception is the call's error result
            _fail(invocation, error)
            return True
        _settle(invocation, value)
        return True
    return invoke


def _blocking(function, user_data=()):
    def body(tool, arguments, cancellable, *ignored):
        try:
            value = function(tool, arguments, cancellable, *user_data)
        except GLib.Error as error:
            _log_exception('The tool “%s”' % tool.get_name(), error)
            raise
        except Exception as error:
            _log_exception('The tool “%s”' % tool.get_name(), error)
            raise GLib.Error(_message(error))
        text, error = _text(value)
        if error is not None:
            raise GLib.Error(error)
        return text
    return body


@override
class Tool(Agent.Tool):
    @classmethod
    def new(cls, name, description, parameters, handler, *user_data):
        """A tool that runs @handler(tool, invocation) for each call. The
        handler returns the result (str as it is, other values as JSON),
        raises for an error result, or is a coroutine function; or it
        completes the invocation itself, at once or later after returning
        Agent.ANSWER_LATER."""
        return Agent.Tool.new(name, description, _parameters(parameters),
                              _handler(handler, user_data))

    @classmethod
    def new_blocking(cls, name, description, parameters, func, *user_data):
        """A tool whose body, func(tool, arguments, cancellable), runs in a
        worker thread and returns its result or raises."""
        return Agent.Tool.new_blocking(name, description, _parameters(parameters),
                                       _blocking(func, user_data))


__all__.append('Tool')


@override
class ToolInvocation(Agent.ToolInvocation):
    @property
    def arguments(self):
        """The call's arguments, as a dict."""
        return _python(self.get_arguments())

    def return_result(self, result):
        if '\0' in result:
            Agent.ToolInvocation.return_error_literal(self, NUL_ERROR)
        else:
            Agent.ToolInvocation.return_result(self, result)

    def return_value(self, value):
        """Completes the invocation with @value: str as it is, other values
        as JSON."""
        if value is ANSWER_LATER:
            raise TypeError('return_value() needs a value, not Agent.ANSWER_LATER')
        _settle(self, value)


__all__.append('ToolInvocation')


@override
class ToolCall(Agent.ToolCall):
    def arguments_dict(self):
        """The call's arguments, parsed, as a dict (raises GLib.Error when
        they are not a JSON object)."""
        return _python(self.parse_arguments())


__all__.append('ToolCall')


# --- MCP elicitation ---------------------------------------------------------

def _json_object(value):
    """A dict as a Json.Object (a Json.Object passes as it is)."""
    if value is None or not isinstance(value, dict):
        return value
    from gi.repository import Json
    return Json.from_string(json.dumps(value, allow_nan=False)).get_object()


@override
class McpElicitation(Agent.McpElicitation):
    def validate(self, content):
        """Checks the values, a dict by field name (or a Json.Object),
        against the requested schema; raises GLib.Error naming the field."""
        return Agent.McpElicitation.validate(self, _json_object(content))

    def accept(self, content=None):
        """Accepts with the values, a dict by field name (or a Json.Object;
        None in URL mode); raises GLib.Error, leaving the request open,
        when they do not follow the schema."""
        return Agent.McpElicitation.accept(self, _json_object(content))

    def requested_schema_dict(self):
        """The requested schema as a dict, or None in URL mode."""
        schema = self.get_requested_schema()
        if schema is None:
            return None
        from gi.repository import Json
        node = Json.Node.alloc().init_object(schema)
        return _python(node)


__all__.append('McpElicitation')


# --- tools from functions --------------------------------------------------

_JSON_TYPES = {str: 'string', int: 'integer', float: 'number', bool: 'boolean',
               dict: 'object', list: 'array', tuple: 'array'}


def _schema_of(hint):
    """The JSON Schema of a type hint."""
    origin = typing.get_origin(hint)
    arguments = typing.get_args(hint)
    if origin is typing.Union:
        others = [a for a in arguments if a is not type(None)]
        schema = _schema_of(others[0]) if len(others) == 1 else {}
        if len(others) == len(arguments) or not schema:
            return schema
        # Optional: null is a value the model may send
        if isinstance(schema.get('type'), str):
            return dict(schema, type=[schema['type'], 'null'])
        if 'enum' in schema:
            return dict(schema, enum=schema['enum'] + [None])
        return {'anyOf': [schema, {'type': 'null'}]}
    if origin is typing.Literal:
        return {'enum': list(arguments)}
    if origin in (list, tuple, collections.abc.Sequence):
        schema = {'type': 'array'}
        if arguments and arguments[0] is not Ellipsis:
            schema['items'] = _schema_of(arguments[0])
        return schema
    if origin is dict:
        return {'type': 'object'}
    if hint in _JSON_TYPES:
        return {'type': _JSON_TYPES[hint]}
    return {}


def _docstring(function):
    """(description, {parameter: description}) from a Google- or
    Sphinx-style docstring."""
    doc = inspect.getdoc(function) or ''
    parts = re.split(r'\n\s*\n', doc, maxsplit=1)
    description = ' '.join(parts[0].split())
    described = {}
    for line in doc.splitlines():
        match = (re.match(r'\s*:param\s+(\w+):\s*(.+)', line) or
                 re.match(r'\s+(\w+)\s*(?:\([^)]*\))?:\s*(.+)', line))
        if match:
            described[match.group(1)] = match.group(2).strip()
    return description, described


def _wants_invocation(parameter):
    return parameter.name == 'invocation' or parameter.annotation is Agent.ToolInvocation


# The options of @Agent.tool: name → (what it takes, a check)
_TOOL_OPTIONS = {
    'name': ('a str', lambda v: isinstance(v, str) and v != ''),
    'description': ('a str', lambda v: isinstance(v, str)),
    'requires_approval': ('True or False', lambda v: isinstance(v, bool)),
    'return_direct': ('True or False', lambda v: isinstance(v, bool)),
    'timeout': ('seconds, a number >= 0',
                lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0),
}


def _check_tool_options(options):
    """Raises TypeError for an option @Agent.tool does not take, naming it
    and the ones it takes, and for a value of the wrong type."""
    accepted = ', '.join(_TOOL_OPTIONS)
    for option, value in options.items():
        if value is None and option in ('name', 'description'):
            continue  # the function's own
        if option not in _TOOL_OPTIONS:
            raise TypeError('Agent.tool() has no option %r; its options are: %s'
                            % (option, accepted))
        what, valid = _TOOL_OPTIONS[option]
        if not valid(value):
            raise TypeError('Agent.tool(): %s must be %s, not %r' % (option, what, value))


def tool(function=None, **options):
    """Makes an Agent.Tool of a function: its name, its docstring's first
    paragraph as the description, and a JSON Schema of its parameters from
    their type hints (a default makes one optional; the docstring's Args:
    describe them). The function is called with the arguments as keywords
    (and the invocation, if it has a parameter named `invocation`), and
    returns its result, raises, or is `async def`.

    The options, all keywords: name (instead of the function's),
    description (instead of the docstring's), requires_approval (True: the
    call runs only once approved, see the approve-tool-call signal),
    return_direct (True: its result is the answer) and timeout (seconds,
    0 for the session's tool-timeout). Any other is a TypeError.

        @Agent.tool
        def get_weather(city: str, unit: Literal['C', 'F'] = 'C') -> str:
            '''Tells the weather in a city.

            Args:
                city: the city, e.g. Seoul
            '''
            return f'Sunny, 21 °{unit} in {city}'

        @Agent.tool(requires_approval=True)
        def delete_file(path: str) -> str:
            ...
    """
    _check_tool_options(options)
    if function is not None and not callable(function):
        raise TypeError('Agent.tool() makes a tool of a function, not of %r' % (function,))

    def make(function):
        signature = inspect.signature(function)
        try:
            hints = typing.get_type_hints(function)
        except Exception:
            hints = {}
        summary, described = _docstring(function)
        properties, required, accepted = {}, [], []
        wants_invocation = False
        for parameter in signature.parameters.values():
            if _wants_invocation(parameter):
                wants_invocation = True
                continue
            if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
                continue
            schema = dict(_schema_of(hints.get(parameter.name)))
            if parameter.name in described:
                schema['description'] = described[parameter.name]
            properties[parameter.name] = schema
            accepted.append(parameter.name)
            if parameter.default is parameter.empty:
                required.append(parameter.name)
        schema = {'type': 'object', 'properties': properties}
        if required:
            schema['required'] = required

        def handler(tool, invocation):
            arguments = _python(invocation.get_arguments()) or {}
            unknown = sorted(set(arguments) - set(accepted))
            if unknown:
                raise ValueError('Unknown argument: %s' % ', '.join(unknown))
            missing = [n for n in required if n not in arguments]
            if missing:
                raise ValueError('Missing argument: %s' % ', '.join(missing))
            if wants_invocation:
                arguments['invocation'] = invocation
            return function(**arguments)

        description = options.get('description')
        made = Tool.new(options.get('name') or function.__name__,
                        summary if description is None else description, schema, handler)
        made.set_requires_approval(options.get('requires_approval', False))
        made.set_return_direct(options.get('return_direct', False))
        made.set_timeout(options.get('timeout', 0))
        return made

    return make(function) if function is not None else make


__all__.append('tool')


# --- hooks -----------------------------------------------------------------

def _decision(value):
    """An Agent.ToolDecision from what a check-tool-call handler returned:
    True allows; False, a reason, None or anything else blocks."""
    if isinstance(value, Agent.ToolDecision):
        return value
    if value is True:
        return Agent.ToolDecision.new_allow()
    if value is False:
        return Agent.ToolDecision.new_block('a check-tool-call hook refused it')
    if isinstance(value, str) and value:
        return Agent.ToolDecision.new_block(value)
    if value is None:
        return Agent.ToolDecision.new_block('the check-tool-call hook gave no decision')
    if value is ANSWER_LATER:
        return Agent.ToolDecision.new_block('the check-tool-call hook must decide at once')
    if inspect.isawaitable(value):
        if inspect.iscoroutine(value):
            value.close()
        return Agent.ToolDecision.new_block('the check-tool-call hook must decide at once, '
                                            'not in a coroutine')
    return Agent.ToolDecision.new_block('the check-tool-call hook returned %s, not a decision'
                                        % type(value).__name__)


def _call_name(call):
    return '“%s” (call %s)' % (call.get_name(), call.get_id())


def _check_tool_call(handler, user_data):
    def check(session, call, *ignored):
        try:
            value = handler(session, call, *user_data)
        except Exception as error:  # fail closed
            _log_exception('The check-tool-call hook, for %s,' % _call_name(call), error)
            return Agent.ToolDecision.new_block('the check-tool-call hook failed: %s'
                                                % _message(error))
        return _decision(value)
    return check


def _filter_tool_result(handler, user_data):
    def filter_result(session, call, *ignored):
        try:
            value = handler(session, call, *user_data)
        except Exception as error:  # withheld rather than unfiltered
            _log_exception('The filter-tool-result hook, for %s,' % _call_name(call), error)
            return 'The result was withheld: the filter-tool-result hook failed: %s' % (
                _message(error))
        if value is None:
            return None
        text, error = _text(value)
        if error is not None:
            return 'The result was withheld: %s' % error
        return text
    return filter_result


def _answer(approval, value):
    """Answers @approval with what a handler returned: True allows, False,
    None or a reason deny; ANSWER_LATER leaves it to the handler."""
    if approval.is_answered() or value is ANSWER_LATER:
        return
    if isinstance(value, Agent.ToolDecision):
        if value.get_allowed():
            approval.allow()
        else:
            approval.deny(value.get_reason())
    elif value is True:
        approval.allow()
    elif isinstance(value, str) and value:
        approval.deny(value)
    elif value is None or value is False:
        approval.deny(None)
    else:
        approval.deny('the approve-tool-call handler returned %s, not an answer'
                      % type(value).__name__)


def _approve_tool_call(handler, user_data):
    def approve(session, call, approval, *ignored):
        try:
            value = handler(session, call, approval, *user_data)
        except Exception as error:  # fail closed
            _log_exception('The approve-tool-call handler, for %s,' % _call_name(call), error)
            if not approval.is_answered():
                approval.deny(_message(error))
            return True
        if inspect.isawaitable(value):
            def done(result, error):
                if approval.is_answered() or approval.get_cancellable().is_cancelled():
                    return
                if error is not None:
                    _log_exception('The approve-tool-call handler, for %s,' % _call_name(call),
                                   error)
                    approval.deny(_message(error))
                else:
                    _answer(approval, result)
            _await(value, done, approval.get_cancellable())
            return True
        _answer(approval, value)
        return True
    return approve


def _output_decision(value):
    """An Agent.OutputDecision from what a check-output handler returned:
    True lets the answer stand; False, None or anything else rejects it."""
    if isinstance(value, Agent.OutputDecision):
        return value
    if value is True:
        return Agent.OutputDecision.new_allow()
    if value is False:
        return Agent.OutputDecision.new_reject('a check-output hook rejected it')
    if value is None:
        return Agent.OutputDecision.new_reject('the check-output hook gave no decision')
    if inspect.isawaitable(value):
        if inspect.iscoroutine(value):
            value.close()
        return Agent.OutputDecision.new_reject('the check-output hook must decide at once, '
                                               'not in a coroutine')
    return Agent.OutputDecision.new_reject('the check-output hook returned %s, not a decision'
                                           % type(value).__name__)


def _check_output(handler, user_data):
    def check(session, answer, *ignored):
        try:
            value = handler(session, answer, *user_data)
        except Exception as error:  # fail closed
            _log_exception('The check-output hook', error)
            return Agent.OutputDecision.new_reject('the check-output hook failed: %s'
                                                   % _message(error))
        return _output_decision(value)
    return check


_HOOKS = {
    'check-output': _check_output,
    'check-tool-call': _check_tool_call,
    'filter-tool-result': _filter_tool_result,
    'approve-tool-call': _approve_tool_call,
}


# --- events ----------------------------------------------------------------

def _usage(usage):
    return None if usage is None else _python(usage.to_json())


def _metrics(metrics):
    return None if metrics is None else _python(metrics.to_json())


def _error_fields(error):
    """The fields of agent-cli's --json error and retry lines."""
    fields = {'code': Agent.error_get_code(error)}
    status = Agent.error_get_http_status(error)
    if status:
        fields['http-status'] = status
    fields['message'] = error.message
    return fields


class _Events:
    """Listens to a session for one turn and keeps its events as dicts with
    the fields of agent-cli's --json lines."""

    def __init__(self, session, finish, wake=None):
        self.session = session
        self.finisher = finish
        self.queue = collections.deque()
        self.wake = wake
        self.done = False
        self.error = None
        raw = Agent.Session.connect
        self.handlers = [
            raw(session, 'text-delta', lambda s, m, text: self.add('text-delta', text=text)),
            raw(session, 'reasoning-delta',
                lambda s, m, text: self.add('reasoning-delta', text=text)),
            raw(session, 'tool-call-delta', lambda s, call, delta: self.add(
                'tool-call-delta', index=call.get_index(), id=call.get_id(),
                name=call.get_name(), **{'arguments-delta': delta})),
            raw(session, 'tool-call', lambda s, call: self.add(
                'tool-call', id=call.get_id(), name=call.get_name(),
                arguments=call.get_arguments())),
            raw(session, 'tool-started', lambda s, call: self.add(
                'tool-started', id=call.get_id(), name=call.get_name(),
                arguments=call.get_arguments())),
            raw(session, 'tool-failed', lambda s, call, error: self.add(
                'tool-failed', id=call.get_id(), name=call.get_name(), **_error_fields(error))),
            raw(session, 'tool-finished', lambda s, call: self.add(
                'tool-finished', id=call.get_id(), name=call.get_name(),
                **{'error' if call.is_error() else 'result': call.get_result()})),
            raw(session, 'tool-progress', lambda s, call, fraction, text: self.add(
                'tool-progress', id=call.get_id(), name=call.get_name(),
                fraction=None if fraction < 0 else fraction, text=text)),
            raw(session, 'retry', lambda s, attempt, delay, error: self.add(
                'retry', attempt=attempt, **{'delay-ms': int(delay * 1000 + 0.5)},
                **_error_fields(error))),
            raw(session, 'step-finished', lambda s, message: self.add(
                'step-finished', usage=_usage(message.get_usage()),
                metrics=_metrics(message.get_metrics()),
                **{'finish-reason': message.get_finish_reason()})),
            raw(session, 'object-delta',
                lambda s, message, node, changes: self.object_delta(_python(changes))),
            raw(session, 'object-finished', lambda s, message, node: self.add(
                'object', object=_python(node))),
        ]

    def object_delta(self, changes):
        # The object so far, built from the changes: each piece converted
        # once, not the whole object again for every piece
        self.object = apply_object_changes(getattr(self, 'object', None), changes)
        self.add('object-delta', changes=changes, object=self.object)

    def add(self, kind, **fields):
        event = {'type': kind}
        event.update(fields)
        self.queue.append(event)
        if self.wake is not None:
            self.wake()

    def finish(self, session, result):
        try:
            message = self.finisher(session, result)
        except GLib.Error as error:
            self.error = error
            self.add('error', **_error_fields(error))
        else:
            answer = {'role': 'assistant', 'content': message.get_content()}
            if message.get_reasoning() is not None:
                answer['reasoning'] = message.get_reasoning()
            if message.get_refusal() is not None:
                answer['refusal'] = message.get_refusal()
            self.add('done', message=answer, usage=_usage(session.get_usage()),
                     metrics=_metrics(message.get_turn_metrics()))
        self.done = True
        self.disconnect()
        if self.wake is not None:
            self.wake()

    def disconnect(self):
        for handler in self.handlers:
            self.session.disconnect(handler)
        self.handlers = []


def _native_asyncio(loop):
    """Whether @loop runs on GLib's main loop (PyGObject 3.50's gi.events)."""
    return type(loop).__module__.startswith('gi.')


@override
class Session(Agent.Session):
    def connect(self, detailed_signal, handler, *user_data):
        wrap = _HOOKS.get(detailed_signal.split('::')[0])
        if wrap is None:
            return Agent.Session.connect(self, detailed_signal, handler, *user_data)
        return Agent.Session.connect(self, detailed_signal, wrap(handler, user_data))

    def connect_after(self, detailed_signal, handler, *user_data):
        wrap = _HOOKS.get(detailed_signal.split('::')[0])
        if wrap is None:
            return Agent.Session.connect_after(self, detailed_signal, handler, *user_data)
        return Agent.Session.connect_after(self, detailed_signal, wrap(handler, user_data))

    def add_tool(self, tool):
        """Adds a tool: an Agent.Tool, or a function made one with
        Agent.tool."""
        if not isinstance(tool, Agent.Tool) and callable(tool):
            tool = globals()['tool'](tool)
        Agent.Session.add_tool(self, tool)

    def set_output_schema(self, schema):
        """Sets the JSON Schema answers are to follow: a dict, JSON text, a
        Json.Node, or None for prose."""
        Agent.Session.set_output_schema(self, _parameters(schema))

    def send_for_object_async(self, text, schema, cancellable, callback, *user_data):
        """Agent.Session.send_for_object_async, the schema a dict, JSON
        text, a Json.Node or None (the session's output-schema)."""
        Agent.Session.send_for_object_async(self, text, _parameters(schema), cancellable,
                                            callback, *user_data)

    def ask_for_object(self, text, schema=None, cancellable=None):
        """Sends @text for an answer that follows @schema (a dict, JSON
        text, a Json.Node, or None for the session's output-schema) and
        returns the object as Python values, running the thread-default
        main context meanwhile. Raises GLib.Error (code 'schema' when the
        answer does not follow the schema)."""
        outcome = {}

        def done(session, result):
            try:
                outcome['object'] = _python(session.send_for_object_finish(result))
            except GLib.Error as error:
                outcome['error'] = error

        self.send_for_object_async(text, schema, cancellable, done)
        context = GLib.MainContext.ref_thread_default()
        while not outcome:
            context.iteration(True)
        if 'error' in outcome:
            raise outcome['error']
        return outcome['object']

    def _start_stream(self, what, own, schema, wake=None):
        """Starts the turn of stream() and stream_async(): after @what, a
        str or an Agent.Message, asking for an answer that follows @schema
        if it is not None. Returns its _Events."""
        is_message = isinstance(what, Agent.Message)
        if not is_message and not isinstance(what, str):
            raise TypeError('stream() sends a str or an Agent.Message, not %s'
                            % type(what).__name__)

        def last_message(session):
            memory = session.get_memory()
            return memory.get_item(memory.get_n_items() - 1)

        if schema is None and is_message:
            events = _Events(self, Agent.Session.send_message_finish, wake)
            Agent.Session.send_message_async(self, what, own, events.finish)
        elif schema is None:
            events = _Events(self, Agent.Session.send_finish, wake)
            Agent.Session.send_async(self, what, own, events.finish)
        elif is_message:
            # No send_for_object for a message: the output-schema of the
            # session, which a turn reads as it starts, for this one only
            def finish(session, result):
                Agent.Session.send_message_finish(session, result)
                return last_message(session)
            events = _Events(self, finish, wake)
            kept = self.get_output_schema()
            Agent.Session.set_output_schema(self, _parameters(schema))
            try:
                Agent.Session.send_message_async(self, what, own, events.finish)
            finally:
                Agent.Session.set_output_schema(self, kept)
        else:
            def finish(session, result):
                Agent.Session.send_for_object_finish(session, result)
                return last_message(session)
            events = _Events(self, finish, wake)
            self.send_for_object_async(what, schema, own, events.finish)
        return events

    def stream(self, text, cancellable=None, schema=None):
        """Runs a turn after @text — a str, or an Agent.Message with images
        and documents — and yields its events as dicts, the fields of
        agent-cli's --json lines, running the thread-default main context
        meanwhile. The last is 'done'; or 'error', after which the
        GLib.Error is raised. Leaving the loop early cancels the turn.
        With @schema (a dict, JSON text or a Json.Node) the answer is to
        follow it: 'object-delta' events carry 'changes' (what the object
        gained, as agent-cli's lines do) and 'object' (the object so far,
        built from them: the same value in each event of an answer,
        growing; copy it to keep how it was), an 'object' event the whole
        of it, as Python values."""
        from gi.repository import Gio
        own = Gio.Cancellable()
        events = self._start_stream(text, own, schema)
        if cancellable is not None:
            cancellable.connect(lambda *args: own.cancel())
        context = GLib.MainContext.ref_thread_default()
        try:
            while True:
                while events.queue:
                    yield events.queue.popleft()
                if events.done:
                    break
                context.iteration(True)
        finally:
            if not events.done:
                own.cancel()
                while not events.done:
                    context.iteration(True)
            events.disconnect()
        if events.error is not None:
            raise events.error

    async def stream_async(self, text, cancellable=None, schema=None):
        """Like stream() (after a str or an Agent.Message), as an async
        iterator for asyncio. With PyGObject
        3.50's GLib event loop policy the GLib main loop runs asyncio; on
        older PyGObject this iterator runs the default GLib main context
        itself, a few milliseconds at a time, while it waits."""
        from gi.repository import Gio
        loop = asyncio.get_running_loop()
        native = _native_asyncio(loop)
        waiter = [None]

        def wake():
            if waiter[0] is not None and not waiter[0].done():
                waiter[0].set_result(None)

        own = Gio.Cancellable()
        events = self._start_stream(text, own, schema, wake)
        if cancellable is not None:
            cancellable.connect(lambda *args: own.cancel())
        context = GLib.MainContext.default()
        try:
            while True:
                while events.queue:
                    yield events.queue.popleft()
                if events.done:
                    break
                if native:
                    waiter[0] = loop.create_future()
                    await waiter[0]
                else:
                    while not events.queue and context.iteration(False):
                        pass
                    if not events.queue and not events.done:
                        await asyncio.sleep(0.002)
        finally:
            if not events.done:
                own.cancel()
                while not events.done:
                    context.iteration(True)
            events.disconnect()
        if events.error is not None:
            raise events.error


__all__.append('Session')


def parse_partial(text):
    """The start of a JSON document as Python values, as far as it
    arrived: open strings, lists and objects closed, an unfinished number
    or literal left out (see Agent.PartialJson). None before any value."""
    data = text.encode('utf-8') if isinstance(text, str) else bytes(text)
    return _python(Agent.json_parse_partial(data))


__all__.append('parse_partial')


def _pointer(path):
    return [part.replace('~1', '/').replace('~0', '~') for part in path.split('/')[1:]]


def apply_object_changes(value, changes):
    """The value after the changes of an object-delta (a list of
    {'op', 'path', 'value'}, see Agent.Session::object-delta): 'add' at ''
    is the object anew; 'append' extends the str, list or dict at its JSON
    pointer by its value. Lists and dicts change in place; the changes'
    own values are copied, never shared. Returns the value (a new one when
    it is a str, or after 'add')."""
    for change in changes:
        added = copy.deepcopy(change['value'])
        if change['op'] == 'add':
            value = added
            continue
        parts = _pointer(change['path'])
        parent, target = None, value
        for part in parts:
            parent = target
            target = target[int(part)] if isinstance(target, list) else target[part]
        if isinstance(target, str):
            if parent is None:
                value = target + added
            else:
                parent[int(parts[-1]) if isinstance(parent, list) else parts[-1]] = target + added
        elif isinstance(target, list):
            target.extend(added)
        else:
            target.update(added)
    return value


__all__.append('apply_object_changes')


@override
class PartialJson(Agent.PartialJson):
    def feed(self, text):
        """Reads the next piece: str or bytes."""
        data = text.encode('utf-8') if isinstance(text, str) else bytes(text)
        return Agent.PartialJson.feed(self, data)

    def get_value_python(self):
        """The value read so far, as Python values (a copy)."""
        return _python(Agent.PartialJson.get_value(self))


__all__.append('PartialJson')
