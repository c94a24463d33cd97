import { Button, CopyButton, FileInput, Group, Modal, Progress, Stack, Table, Text, TextInput, Tooltip, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { ApiFailure, unwrap } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import { attempt } from '../../components/FormModal';
import { FormError, QueryView } from '../../components/states';
import { useQuery } from '../../lib/hooks';
import { formatDate } from '../../lib/money';
import { useSession } from '../../session';
import { uploadProductFile } from '../../lib/upload';

const sizeText = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);

/** The buy link of a product, with a copy button. */
export function BuyLink({ url, name }: { url: string; name: string }) {
  return (
    <Group gap={4} wrap="nowrap">
      <TextInput value={url} readOnly aria-label={`Buy link of ${name}`} size="xs" w={260} data-testid="buy-link" onFocus={(e) => e.currentTarget.select()} />
      <CopyButton value={url}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : 'Copy the buy link'}>
            <Button size="xs" variant={copied ? 'filled' : 'default'} onClick={copy} aria-label={`${copied ? 'Copied' : 'Copy'} the buy link of ${name}`}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}

/** The files a product delivers: upload with progress, list, delete. */
export function ProductFilesModal({ product, onClose }: { product: { _id: string; name: string; buyUrl?: string } | null; onClose: () => void }) {
  const { api, config, current } = useSession();
  const id = product?._id ?? '';
  const query = useQuery((api) => (id ? unwrap(api.GET('/products/{id}/files', { params: { path: { id } } })) : Promise.resolve([])), [id]);
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [uploading, setUploading] = useState(false);
  const [uploaded, setUploaded] = useState<string | null>(null);
  const [error, setError] = useState<ApiFailure | null>(null);
  const send = async () => {
    if (!file || !product) return;
    setError(null);
    setUploaded(null);
    setProgress(0);
    setUploading(true);
    try {
      await uploadProductFile(config.apiBaseUrl, current?.token, product._id, file, setProgress);
      setUploaded(file.name);
      setFile(null);
      query.reload();
    } catch (failure) {
      setError(failure instanceof ApiFailure ? failure : new ApiFailure(0, { message: String(failure) }));
      setProgress(null);
    } finally {
      setUploading(false);
    }
  };
  return (
    <Modal opened={product !== null} onClose={onClose} title={product ? `Files of ${product.name}` : ''} size="lg">
      <Stack>
        <Text size="sm" c="dimmed">
          Every paid order of this product can download these files: from the thank-you page, the receipt and the order.
        </Text>
        {product?.buyUrl && <BuyLink url={product.buyUrl} name={product.name} />}
        <Group align="flex-end">
          <FileInput
            label="File"
            placeholder="Choose a file"
            value={file}
            onChange={(f) => {
              setFile(f);
              setProgress(null);
              setUploaded(null);
            }}
            clearable
            w={300}
            data-testid="file-input"
          />
          <Button onClick={send} disabled={!file} loading={uploading} data-testid="upload-file">
            Upload
          </Button>
        </Group>
        {progress !== null && (
          <div data-testid="upload-progress">
            <Text size="sm" aria-live="polite">
              {uploading ? `Uploading… ${Math.round(progress * 100)}%` : uploaded ? `${uploaded} is uploaded.` : ''}
            </Text>
            <Progress value={Math.round(progress * 100)} aria-label="Upload progress" animated={uploading} />
          </div>
        )}
        <FormError error={error} />
        <QueryView query={query}>
          {(files) =>
            files.length === 0 ? (
              <Text size="sm">No files yet.</Text>
            ) : (
              <Table aria-label="Files">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">Name</Table.Th>
                    <Table.Th scope="col">Size</Table.Th>
                    <Table.Th scope="col">Added</Table.Th>
                    <Table.Th scope="col">
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {files.map((f) => (
                    <Table.Tr key={f._id}>
                      <Table.Td data-testid="file-name">{f.name}</Table.Td>
                      <Table.Td>{sizeText(f.size)}</Table.Td>
                      <Table.Td>{formatDate(f.createdAt)}</Table.Td>
                      <Table.Td>
                        <ConfirmButton
                          size="xs"
                          title="Remove file"
                          message={`Remove ${f.name}? Buyers can no longer download it.`}
                          confirmLabel="Remove"
                          aria-label={`Remove ${f.name}`}
                          onConfirm={() =>
                            attempt(async () => {
                              await unwrap(api.DELETE('/products/{id}/files/{fileId}', { params: { path: { id, fileId: f._id } } }));
                              query.reload();
                            })
                          }
                        >
                          Remove
                        </ConfirmButton>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )
          }
        </QueryView>
      </Stack>
    </Modal>
  );
}
