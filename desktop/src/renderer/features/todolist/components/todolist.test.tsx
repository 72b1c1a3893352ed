import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { usePreferences } from '../../../stores/preferences-store';
import { fakeServer, planReply, renderApp, signIn } from '../../../test/render';
import { addTodo, editTodo, removeTodo } from '../hooks/todo-rules';

describe('to-do rules', () => {
  it('adds with text, createdAt and updatedAt, ignoring blank text', () => {
    const now = new Date('2024-01-02T03:04:05Z');
    const list = addTodo([], '  buy milk ', now);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ text: 'buy milk', createdAt: now.toISOString(), updatedAt: now.toISOString() });
    expect(typeof list[0].id).toBe('string');
    expect(addTodo(list, '   ')).toEqual(list);
  });

  it('edits (moving updatedAt) and ignores a blank edit; removes', () => {
    const list = addTodo([], 'a', new Date('2024-01-01T00:00:00Z'));
    const later = new Date('2024-02-01T00:00:00Z');
    const edited = editTodo(list, list[0].id, 'b', later);
    expect(edited[0]).toMatchObject({ text: 'b', createdAt: list[0].createdAt, updatedAt: later.toISOString() });
    expect(editTodo(edited, list[0].id, ' ')).toEqual(edited);
    expect(removeTodo(edited, list[0].id)).toEqual([]);
  });
});

describe('to-do page', () => {
  it('adds, edits and removes through the preferences', async () => {
    fakeServer((call) => (call.url.startsWith('/companies/listPlan/') ? planReply() : { data: [] }));
    usePreferences.getState().set('todoList', []);
    signIn();
    renderApp('/todolist');
    const input = await screen.findByTestId('todo-input');
    fireEvent.change(input, { target: { value: '   ' } });
    fireEvent.click(screen.getByTestId('todo-add'));
    expect(usePreferences.getState().todoList).toHaveLength(0);
    fireEvent.change(input, { target: { value: 'Call Ana' } });
    fireEvent.click(screen.getByTestId('todo-add'));
    expect(usePreferences.getState().todoList.map((t) => t.text)).toEqual(['Call Ana']);
    fireEvent.click(await screen.findByTestId('todo-edit'));
    fireEvent.change(screen.getByTestId('todo-edit-input'), { target: { value: 'Call Bob' } });
    fireEvent.click(screen.getByTestId('todo-save'));
    expect(usePreferences.getState().todoList.map((t) => t.text)).toEqual(['Call Bob']);
    fireEvent.click(await screen.findByTestId('todo-remove'));
    expect(usePreferences.getState().todoList).toHaveLength(0);
  });
});
