/**
 * FileField: refuses files that are too large or of a type not in the list with the
 * profile.* messages, enforces the maximum number of files, lists chosen files with remove
 * buttons, and accepts drops.
 */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FileField, isAccepted } from '../../src/components/FileField';

function file(name: string, type: string, sizeBytes = 1000): File {
  const f = new File(['x'], name, { type });
  Object.defineProperty(f, 'size', { value: sizeBytes });
  return f;
}

const MB = 1024 * 1024;
// applyAccept: false lets the test hand the input a file the picker would have hidden.
const setup = () => userEvent.setup({ applyAccept: false });

describe('isAccepted', () => {
  it('matches MIME types, wildcards and extensions', () => {
    expect(isAccepted(file('a.pdf', 'application/pdf'), ['application/pdf'])).toBe(true);
    expect(isAccepted(file('a.png', 'image/png'), ['image/*'])).toBe(true);
    expect(isAccepted(file('a.exe', 'application/x-msdownload'), ['image/*', '.pdf'])).toBe(false);
    expect(isAccepted(file('scan.JPG', ''), ['image/jpeg'])).toBe(true);
    expect(isAccepted(file('doc.pdf', ''), ['.pdf'])).toBe(true);
  });
});

describe('FileField', () => {
  const accept = ['image/jpeg', 'image/png', 'application/pdf'];

  it('shows the accepted types and limits to the user', () => {
    render(<FileField label="Passport" accept={accept} />);
    expect(screen.getByText(/Accepted: JPG, PNG, PDF/)).toBeTruthy();
    expect(screen.getByText(/up to 10 MB each, at most 5 files/)).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Passport' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Choose files' })).toBeTruthy();
  });

  it('rejects a file over the size limit with profile.file_too_large', async () => {
    const user = setup();
    const onChange = vi.fn();
    render(<FileField label="Passport" accept={accept} maxSizeMB={2} onChange={onChange} />);
    await user.upload(screen.getByLabelText('Passport', { selector: 'input' }), file('big.pdf', 'application/pdf', 3 * MB));
    expect(screen.getByText('big.pdf is too large. The maximum size is 2 MB.')).toBeTruthy();
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.queryByRole('list', { name: /Selected files/ })).toBeNull();
  });

  it('rejects a wrong type with profile.file_type_not_supported', async () => {
    const user = setup();
    const onChange = vi.fn();
    render(<FileField label="Passport" accept={accept} onChange={onChange} />);
    await user.upload(screen.getByLabelText('Passport', { selector: 'input' }), file('virus.exe', 'application/x-msdownload'));
    expect(screen.getByText('virus.exe: this file type is not supported. Accepted: JPG, PNG, PDF.')).toBeTruthy();
    expect(onChange).not.toHaveBeenCalled();
  });

  it('keeps the good files of a mixed selection', async () => {
    const user = setup();
    const onChange = vi.fn();
    render(<FileField label="Passport" accept={accept} maxSizeMB={1} onChange={onChange} />);
    await user.upload(screen.getByLabelText('Passport', { selector: 'input' }), [
      file('ok.png', 'image/png', 500),
      file('big.jpg', 'image/jpeg', 2 * MB),
      file('bad.txt', 'text/plain'),
    ]);
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange.mock.calls[0][0].map((f: File) => f.name)).toEqual(['ok.png']);
    expect(screen.getByText(/big\.jpg is too large/)).toBeTruthy();
    expect(screen.getByText(/bad\.txt: this file type is not supported/)).toBeTruthy();
  });

  it('respects maxFiles and says so', async () => {
    const user = setup();
    const onChange = vi.fn();
    render(<FileField label="Documents" accept={accept} maxFiles={2} onChange={onChange} />);
    await user.upload(screen.getByLabelText('Documents', { selector: 'input' }), [
      file('a.png', 'image/png'),
      file('b.png', 'image/png'),
      file('c.png', 'image/png'),
    ]);
    expect(onChange.mock.calls.at(-1)![0].map((f: File) => f.name)).toEqual(['a.png', 'b.png']);
    expect(screen.getByText('You can attach at most 2 files.')).toBeTruthy();
    const list = screen.getByRole('list', { name: 'Selected files: 2 of 2' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect((screen.getByRole('button', { name: 'Choose files' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('removes a chosen file with its remove button', async () => {
    const user = setup();
    const onChange = vi.fn();
    render(<FileField label="Documents" accept={accept} onChange={onChange} />);
    await user.upload(screen.getByLabelText('Documents', { selector: 'input' }), [file('a.png', 'image/png'), file('b.pdf', 'application/pdf')]);
    await user.click(screen.getByRole('button', { name: 'Remove a.png' }));
    expect(onChange.mock.calls.at(-1)![0].map((f: File) => f.name)).toEqual(['b.pdf']);
    expect(screen.queryByText('a.png')).toBeNull();
    expect(screen.getByText('b.pdf')).toBeTruthy();
  });

  it('accepts dropped files through the same checks', () => {
    const onChange = vi.fn();
    render(<FileField label="Selfie" accept={['image/*']} maxFiles={1} onChange={onChange} />);
    fireEvent.drop(screen.getByTestId('file-drop'), {
      dataTransfer: { files: [file('me.png', 'image/png'), file('cv.pdf', 'application/pdf')] },
    });
    expect(onChange.mock.calls[0][0].map((f: File) => f.name)).toEqual(['me.png']);
    expect(screen.getByText(/cv\.pdf: this file type is not supported/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Choose a file' })).toBeTruthy();
  });

  it('the picker button opens the file input', async () => {
    const user = setup();
    render(<FileField label="Selfie" accept={['image/*']} />);
    const input = screen.getByLabelText('Selfie', { selector: 'input' }) as HTMLInputElement;
    const click = vi.spyOn(input, 'click');
    await user.click(screen.getByRole('button', { name: 'Choose files' }));
    expect(click).toHaveBeenCalled();
  });
});
